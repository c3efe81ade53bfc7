package jsonld

import (
	gocontext "context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/jsonld/internal/fromrdf"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
)

// Form is the shape of the JSON-LD that Write produces.
type Form int

// The forms Write can produce.
const (
	// Expanded is expanded JSON-LD: full IRIs, every value in an array.
	Expanded Form = iota
	// Compacted is JSON-LD compacted with a context.
	Compacted
)

// String names the form.
func (f Form) String() string {
	switch f {
	case Expanded:
		return "expanded"
	case Compacted:
		return "compacted"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// WriteOptions configure Write.
type WriteOptions struct {
	// Form is Expanded (the default) or Compacted.
	Form Form
	// Context is the JSON-LD context used to compact: a context value (a
	// JSON object or array, as decoded by encoding/json) or a URL string
	// (resolved offline by NewLoader, e.g. "https://schema.org"). Nil means
	// a context built from the dataset's prefixes (the empty prefix becomes
	// @vocab).
	Context any
	// Indent, if not empty, indents the output with this string per level.
	Indent string
	// Loader, if set, replaces NewLoader for contexts given by URL.
	Loader DocumentLoader
}

// ErrTripleTerm is returned by Write for a dataset with an RDF 1.2 triple
// term, which JSON-LD 1.1 cannot represent.
var ErrTripleTerm = errors.New("jsonld: JSON-LD cannot represent RDF 1.2 triple terms")

// Write writes d as one JSON-LD document: the Serialize RDF as JSON-LD
// algorithm of JSON-LD 1.1 (this package's own, in time linear in the
// number of quads), without native types and with rdf:JSON literals kept
// as typed strings, so every literal keeps its exact lexical form and
// datatype; then compaction (package ldproc's Compactor) if asked.
//
// The output depends only on the set of quads, their blank node labels and
// the options: nodes are sorted by @id, the values of each property are
// sorted by their JSON text (list order is kept), and object keys are
// sorted. Literals with a base direction (RDF 1.2 directional
// language-tagged strings) are written with @language and @direction, which
// the reader makes such literals again by default (Options.RDFDirection);
// literals of an i18n datatype (https://www.w3.org/ns/i18n#LANG_DIR) stay
// typed literals.
//
// JSON-LD 1.1 has no triple terms: a dataset with an RDF 1.2 triple term
// is refused with ErrTripleTerm before anything is written. Compaction
// refuses, with an error naming it, an IRI that the context cannot write
// (its scheme is the name of a prefix of the context, so JSON-LD would read
// it as a compact IRI). Relative IRIs are written as they are; the reader
// drops them, as JSON-LD to RDF has none.
func Write(w io.Writer, d *rdf.Dataset, opts WriteOptions) error {
	return WriteContext(gocontext.Background(), w, d, opts)
}

// WriteContext is Write with a context: it stops with ctx.Err() soon after
// ctx is cancelled (before anything is written, or while encoding, leaving
// w with part of the document).
func WriteContext(ctx gocontext.Context, w io.Writer, d *rdf.Dataset, opts WriteOptions) error {
	quads := d.Sorted()
	for _, q := range quads {
		if q.O.Kind == rdf.TripleKind {
			return fmt.Errorf("%w: %s", ErrTripleTerm, q.O)
		}
	}
	broken := brokenListGraphs(quads)
	if len(broken) > 0 {
		for i, q := range quads {
			if broken[q.G] && q.P.Value == rdf.RDFRest && q.O == rdf.NewIRI(rdf.RDFNil) {
				quads[i].O = rdf.NewIRI(nilPlaceholder)
			}
		}
	}
	expanded, err := fromrdf.Convert(ctx, quads, fromrdf.Options{})
	if err != nil {
		return fmt.Errorf("jsonld: write: %w", fromLD(err))
	}
	if len(broken) > 0 {
		restoreNil(expanded)
	}
	sortExpanded(expanded)
	if err := ctx.Err(); err != nil {
		return err
	}
	var out any = expanded
	if opts.Form == Compacted {
		compacted, err := compact(expanded, d, opts)
		if err != nil {
			return fmt.Errorf("jsonld: write: %w", err)
		}
		out = compacted
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if opts.Indent != "" {
		enc.SetIndent("", opts.Indent)
	}
	return enc.Encode(out)
}

// compact compacts the expanded form of d against opts.Context, or the
// context of d's prefixes.
func compact(expanded []any, d *rdf.Dataset, opts WriteOptions) (map[string]any, error) {
	st := newState(nil, Options{Loader: opts.Loader})
	cv := opts.Context
	if cv == nil {
		cv = prefixContext(d)
	}
	local := cv
	if m, ok := cv.(map[string]any); ok && len(m) == 1 {
		if c, ok := m["@context"]; ok {
			local = c // a context document
		}
	}
	c, err := ldproc.NewCompactor(env{st}, local)
	if err != nil {
		return nil, fmt.Errorf("context: %w", fromLD(err))
	}
	doc, err := c.Document(expanded, cv)
	return doc, fromLD(err)
}

// prefixContext builds a context from the prefix declarations of d: each
// prefix a term (marked as a prefix when its IRI does not end in a
// character JSON-LD 1.1 requires of one), the empty prefix @vocab. Left
// out are prefixes whose IRI is not absolute, whose name JSON-LD gives
// another meaning ("_", keywords, names with ':') and whose name is the
// scheme of an IRI of d, which the prefix would turn into a compact IRI.
func prefixContext(d *rdf.Dataset) map[string]any {
	schemes := map[string]bool{}
	scheme := func(iri string) {
		if s, _, ok := strings.Cut(iri, ":"); ok {
			schemes[s] = true
		}
	}
	for _, q := range d.Quads() {
		for _, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
			switch {
			case t.IsIRI():
				scheme(t.Value)
			case t.IsLiteral():
				scheme(t.Datatype)
			}
		}
	}
	ctx := map[string]any{}
	for _, p := range d.Prefixes {
		if !rdf.IsAbsoluteIRI(p.IRI) {
			continue
		}
		switch {
		case p.Name == "":
			ctx["@vocab"] = p.IRI
		case strings.HasPrefix(p.Name, "_") || strings.HasPrefix(p.Name, "@") || strings.Contains(p.Name, ":") ||
			schemes[p.Name]:
		case ldproc.IsGenDelim(p.IRI[len(p.IRI)-1]):
			ctx[p.Name] = p.IRI
		default:
			ctx[p.Name] = map[string]any{"@id": p.IRI, "@prefix": true}
		}
	}
	return ctx
}

// sortExpanded puts expanded JSON-LD in a canonical order: node arrays
// (top level and @graph) by @id, other value arrays by their JSON text,
// @type arrays by string; @list arrays keep their order.
func sortExpanded(v []any) {
	for _, n := range v {
		sortNode(n)
	}
	sortByJSON(v)
}

func sortNode(n any) {
	m, ok := n.(map[string]any)
	if !ok {
		return
	}
	for k, val := range m {
		switch k {
		case "@list":
			if arr, ok := val.([]any); ok {
				for _, e := range arr {
					sortNode(e)
				}
			}
		case "@id", "@value", "@language", "@direction", "@index":
		default:
			if arr, ok := val.([]any); ok {
				for _, e := range arr {
					sortNode(e)
				}
				sortByJSON(arr)
			}
		}
	}
}

// sortByJSON sorts values by (@id, JSON text); the @id first keeps node
// arrays in subject order.
func sortByJSON(arr []any) {
	type keyed struct {
		id, text string
		v        any
	}
	ks := make([]keyed, len(arr))
	for i, e := range arr {
		b, _ := json.Marshal(e)
		id := ""
		if m, ok := e.(map[string]any); ok {
			id, _ = m["@id"].(string)
		} else if s, ok := e.(string); ok {
			id = s
		}
		ks[i] = keyed{id, string(b), e}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if c := strings.Compare(a.id, b.id); c != 0 {
			return c
		}
		return strings.Compare(a.text, b.text)
	})
	for i := range ks {
		arr[i] = ks[i].v
	}
}

// nilPlaceholder stands for rdf:nil while a graph that holds a malformed
// list node is converted, so that no list is folded there (a list node
// without exactly one rdf:first cannot become a JSON-LD list).
const nilPlaceholder = "urn:x-isolda:jsonld:nil"

// brokenListGraphs returns the graphs with a blank node that has rdf:rest
// but not exactly one rdf:first, or a list node that is the object of
// rdf:type: the JSON-LD from-RDF algorithm (§8.4 step 5.7.3) does not count
// @type values as uses of a node, so it would fold that node into an @list
// and the @type would name another node.
func brokenListGraphs(quads []rdf.Quad) map[rdf.Term]bool {
	type key struct{ g, s rdf.Term }
	firsts := map[key]int{}
	rests := map[key]bool{}
	typed := map[key]bool{}
	for _, q := range quads {
		if q.P.Value == rdf.RDFType && q.O.IsBlank() {
			typed[key{q.G, q.O}] = true
		}
		if !q.S.IsBlank() {
			continue
		}
		switch q.P.Value {
		case rdf.RDFFirst:
			firsts[key{q.G, q.S}]++
		case rdf.RDFRest:
			rests[key{q.G, q.S}] = true
		}
	}
	broken := map[rdf.Term]bool{}
	for k := range rests {
		if firsts[k] != 1 || typed[k] {
			broken[k.g] = true
		}
	}
	for k := range firsts {
		if typed[k] {
			broken[k.g] = true
		}
	}
	return broken
}

// restoreNil replaces the placeholder by rdf:nil in expanded JSON-LD.
func restoreNil(v any) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			restoreNil(e)
		}
	case map[string]any:
		if x["@id"] == nilPlaceholder {
			x["@id"] = rdf.RDFNil
		}
		for _, e := range x {
			restoreNil(e)
		}
	}
}
