package rdf

import (
	"cmp"
	"slices"
)

// Count is a name with a number, used in summaries.
type Count struct {
	Name  string
	Count int
}

// Summary describes a dataset: what `isolda stats` prints.
type Summary struct {
	Quads      int
	Graphs     int // named graphs (the default graph is not counted)
	Subjects   int // distinct subjects
	Predicates int // distinct predicates
	Objects    int // distinct objects
	BlankNodes int // distinct blank nodes in any position, inside triple terms too
	Literals   int // distinct literals (not counting those inside triple terms)
	// TripleTerms counts distinct RDF 1.2 triple terms used as objects
	// (nested ones not counted).
	TripleTerms int
	Types       []Count // entities per rdf:type class, most first, ties by IRI
	Languages   []Count // literals per language tag (lower case), most first
	Datatypes   []Count // literals per datatype IRI, most first
}

// Summarize computes a Summary. Counts of literals by language and datatype
// count distinct literal terms.
func Summarize(d *Dataset) Summary {
	s := Summary{Quads: d.Len()}
	subj, pred, obj, graphs, blanks := map[TermID]bool{}, map[TermID]bool{}, map[TermID]bool{}, map[TermID]bool{}, map[TermID]bool{}
	inner := map[string]bool{} // blank nodes only inside triple terms
	typeOf := map[TermID]map[TermID]bool{}
	rdfType, hasType := d.Lookup(NewIRI(RDFType))
	for _, q := range d.quads {
		subj[q[0]], pred[q[1]], obj[q[2]] = true, true, true
		if q[3] != 0 {
			graphs[q[3]] = true
		}
		for _, id := range q {
			switch d.terms[id].Kind {
			case BlankKind:
				blanks[id] = true
			case TripleKind:
				EachBlank(d.terms[id], func(b Term) {
					if bid, ok := d.blanks[b.Value]; ok {
						blanks[bid] = true
					} else {
						inner[b.Value] = true
					}
				})
			}
		}
		if hasType && q[1] == rdfType {
			if typeOf[q[2]] == nil {
				typeOf[q[2]] = map[TermID]bool{}
			}
			typeOf[q[2]][q[0]] = true
		}
	}
	s.Subjects, s.Predicates, s.Objects, s.Graphs, s.BlankNodes = len(subj), len(pred), len(obj), len(graphs), len(blanks)+len(inner)
	langs, dts := map[string]int{}, map[string]int{}
	for _, t := range d.terms[1:] {
		if t.Kind == TripleKind {
			s.TripleTerms++
		}
		if t.Kind != LiteralKind {
			continue
		}
		s.Literals++
		dts[t.Datatype]++
		if t.Lang != "" {
			langs[foldLang(t.Lang)]++
		}
	}
	types := map[string]int{}
	for cls, members := range typeOf {
		types[d.terms[cls].Value] = len(members)
	}
	s.Types, s.Languages, s.Datatypes = sortedCounts(types), sortedCounts(langs), sortedCounts(dts)
	return s
}

// sortedCounts orders counts by descending count, then name.
func sortedCounts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, v := range m {
		out = append(out, Count{k, v})
	}
	slices.SortFunc(out, func(a, b Count) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}
