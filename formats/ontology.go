package formats

import (
	"cmp"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/formats/ontology"
	"github.com/isolda/isolda/rdf"
)

// Well-known IRIs of RDFS and OWL.
const (
	owlNS          = "http://www.w3.org/2002/07/owl#"
	rdfsDomain     = rdf.RDFSNS + "domain"
	rdfsRange      = rdf.RDFSNS + "range"
	rdfsLabel      = rdf.RDFSNS + "label"
	rdfsClass      = rdf.RDFSNS + "Class"
	rdfProperty    = rdf.RDFNS + "Property"
	owlClass       = owlNS + "Class"
	owlOntology    = owlNS + "Ontology"
	owlObjectProp  = owlNS + "ObjectProperty"
	owlDataProp    = owlNS + "DatatypeProperty"
	owlAnnotProp   = owlNS + "AnnotationProperty"
	dctTitle       = "http://purl.org/dc/terms/title"
	skosPrefLabel  = "http://www.w3.org/2004/02/skos/core#prefLabel"
	ontologyPrefix = "onto_"
)

// ToOntology derives an ontology from the RDFS and OWL statements of a
// dataset (all graphs merged):
//
//   - concepts are the IRIs typed owl:Class or rdfs:Class and the IRI
//     objects of rdfs:domain and rdfs:range outside the XML Schema
//     namespace; a concept's ID is its local name (after the last '#', '/'
//     or ':') and its Label its rdfs:label (English preferred, then no
//     language, then the smallest), else skos:prefLabel, else the local name;
//   - relations are the IRIs typed rdf:Property, owl:ObjectProperty,
//     owl:DatatypeProperty or owl:AnnotationProperty, or that have an
//     rdfs:domain or rdfs:range; Domain and Range are the labels of the
//     smallest (by label) domain and range, an XML Schema datatype being
//     its local name ("string", "date"), empty when there is none;
//   - Title is the label or dct:title of the owl:Ontology, ID its IRI's
//     local name (the smallest when there are several).
//
// Concepts and relations are sorted by label, then by IRI.
func ToOntology(d *rdf.Dataset) *ontology.Ontology {
	o := &ontology.Ontology{}
	if d == nil {
		return o
	}
	quads := d.Quads()
	labels := map[string]string{}
	rank := map[string]int{}
	for _, q := range quads {
		if !q.S.IsIRI() || !q.O.IsLiteral() {
			continue
		}
		r := -1
		switch q.P.Value {
		case rdfsLabel:
			r = 0
		case skosPrefLabel:
			r = 3
		case dctTitle:
			r = 6
		default:
			continue
		}
		switch strings.ToLower(q.O.Lang) {
		case "en":
		case "":
			r++
		default:
			r += 2
		}
		old, ok := rank[q.S.Value]
		if !ok || r < old || r == old && q.O.Value < labels[q.S.Value] {
			rank[q.S.Value], labels[q.S.Value] = r, q.O.Value
		}
	}
	label := func(iri string) string {
		if l, ok := labels[iri]; ok {
			return l
		}
		return localName(iri)
	}
	concepts := map[string]bool{}
	relations := map[string]bool{}
	domains := map[string][]string{}
	ranges := map[string][]string{}
	var ontologies []string
	for _, q := range quads {
		if !q.S.IsIRI() {
			continue
		}
		s := q.S.Value
		switch q.P.Value {
		case rdf.RDFType:
			switch q.O.Value {
			case owlClass, rdfsClass:
				concepts[s] = true
			case rdfProperty, owlObjectProp, owlDataProp, owlAnnotProp:
				relations[s] = true
			case owlOntology:
				ontologies = append(ontologies, s)
			}
		case rdfsDomain, rdfsRange:
			if !q.O.IsIRI() {
				continue
			}
			relations[s] = true
			if !strings.HasPrefix(q.O.Value, rdf.XSD) {
				concepts[q.O.Value] = true
			}
			if q.P.Value == rdfsDomain {
				domains[s] = append(domains[s], q.O.Value)
			} else {
				ranges[s] = append(ranges[s], q.O.Value)
			}
		}
	}
	smallest := func(iris []string) string {
		var best string
		for i, iri := range iris {
			if l := label(iri); i == 0 || l < best {
				best = l
			}
		}
		return best
	}
	for _, c := range sortedByLabel(concepts, label) {
		o.Concepts = append(o.Concepts, ontology.Concept{ID: localName(c), Label: label(c)})
	}
	for _, r := range sortedByLabel(relations, label) {
		o.Relations = append(o.Relations, ontology.Relation{ID: localName(r), Label: label(r),
			Domain: smallest(domains[r]), Range: smallest(ranges[r])})
	}
	if len(ontologies) > 0 {
		slices.Sort(ontologies)
		o.ID, o.Title = localName(ontologies[0]), labels[ontologies[0]]
	}
	return o
}

// sortedByLabel returns the keys of set sorted by label, then IRI.
func sortedByLabel(set map[string]bool, label func(string) string) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(strings.Compare(label(a), label(b)), strings.Compare(a, b))
	})
	return out
}

// localName is the part of an IRI, without trailing '/' and '#', after its
// last '#', else '/', else ':' (the whole IRI when that part is empty).
func localName(iri string) string {
	full := iri
	iri = strings.TrimRight(iri, "/#")
	i := strings.LastIndexByte(iri, '#')
	if i < 0 {
		i = strings.LastIndexByte(iri, '/')
	}
	if i < 0 {
		i = strings.LastIndexByte(iri, ':')
	}
	if i < 0 || i == len(iri)-1 {
		return full
	}
	return iri[i+1:]
}

// What ToOntology leaves out of an RDF dataset.
const ontologyLoses = "everything but classes and properties (labels, one domain and one range each): " +
	"instances, literal-valued triples, other axioms, named graphs (merged)"

// ontologyFormats are the study's ontology formats (appendix H.3) of the
// ontology view (Input.Ontology). Their names take the prefix "onto_",
// since the graph formats use the same names.
func ontologyFormats() []Format {
	var fs []Format
	for _, info := range ontology.Formats() {
		loses := ontologyLoses
		if info.Loses != "" {
			loses = info.Loses + "; from RDF: " + ontologyLoses
		}
		fs = append(fs, Format{
			Name: ontologyPrefix + info.Name, Family: info.Family, Source: info.Source, Input: InputOntology,
			Loses: loses,
			Encode: func(w io.Writer, in *Input) error {
				return ontology.Encode(w, in.Ontology(), info.Name)
			},
		})
	}
	return fs
}
