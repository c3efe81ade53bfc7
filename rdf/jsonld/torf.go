package jsonld

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/piprate/json-gold/ld"
)

// i18nBase is the namespace of rdfDirection "i18n-datatype" datatypes.
const i18nBase = "https://www.w3.org/ns/i18n#"

// maxWarnings bounds the distinct warnings remembered (and reported) per
// document, so that hostile input cannot grow the set without bound.
const maxWarnings = 1000

// state is the conversion of one input (a document or an HTML page) to quads.
type state struct {
	sink   rdf.Sink
	opts   Options
	lim    rdf.Limits
	loader ld.DocumentLoader

	issuer  *ld.IdentifierIssuer
	nquads  int64
	warned  map[string]bool
	err     error // first error from a strict warning
	pending []rdf.Quad
	out     []rdf.Quad // the current document's quads, sent once complete

	prefixCache map[string][]rdf.Prefix // by context URL

	// line and column locate the current document in its file (the start
	// of an HTML script element); zero for a whole file. Warnings carry
	// them, as no finer position survives JSON-LD processing.
	line, column int
}

func newState(sink rdf.Sink, opts Options) *state {
	l := opts.Loader
	if l == nil {
		l = NewLoader(opts)
	}
	lim := opts.Limits.WithDefaults()
	return &state{sink: sink, opts: opts, lim: lim, loader: newGuardedLoader(l, lim.MaxDepth),
		warned: map[string]bool{}, prefixCache: map[string][]rdf.Prefix{}}
}

// jsonldOptions returns json-gold options for a document with the given base.
func (st *state) jsonldOptions(base string) *ld.JsonLdOptions {
	o := ld.NewJsonLdOptions(base)
	o.DocumentLoader = st.loader
	if st.opts.ProcessingMode != "" {
		o.ProcessingMode = st.opts.ProcessingMode
	}
	o.ExpandContext = st.opts.ExpandContext
	o.ProduceGeneralizedRdf = st.opts.GeneralizedRDF
	o.Algorithm = ld.AlgorithmURDNA2015
	return o
}

// protect runs f, turning a panic inside json-gold into an error.
func (st *state) protect(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &Error{File: st.opts.File, Code: "processor failure",
				Msg: fmt.Sprintf("internal error in the JSON-LD processor: %v", r)}
		}
	}()
	return f()
}

// ldError converts a json-gold error to *Error.
func (st *state) ldError(err error) error {
	if err == nil {
		return nil
	}
	var pe *rdf.ParseError
	var je *Error
	if errors.As(err, &je) || errors.As(err, &pe) {
		return err
	}
	var lp *ld.JsonLdError
	if errors.As(err, &lp) {
		msg := ""
		if lp.Details != nil {
			msg = fmt.Sprint(lp.Details)
		}
		return &Error{File: st.opts.File, Code: string(lp.Code), Msg: msg, Err: err}
	}
	var lv ld.JsonLdError
	if errors.As(err, &lv) {
		msg := ""
		if lv.Details != nil {
			msg = fmt.Sprint(lv.Details)
		}
		return &Error{File: st.opts.File, Code: string(lv.Code), Msg: msg, Err: err}
	}
	return &Error{File: st.opts.File, Code: "processor failure", Msg: err.Error(), Err: err}
}

// document converts one parsed JSON document: prefixes first, then quads.
// blankPrefix is the label prefix of its blank nodes, including "_:".
func (st *state) document(doc any, base, blankPrefix string) error {
	switch doc.(type) {
	case map[string]any, []any:
	default:
		return &rdf.ParseError{File: st.opts.File, Line: max(st.line, 1), Column: max(st.column, 1),
			Msg: "a JSON-LD document must be a JSON object or array"}
	}
	jo := st.jsonldOptions(base)
	var prefixes []rdf.Prefix
	ps, wantPrefixes := st.sink.(rdf.PrefixSink)
	if wantPrefixes {
		prefixes = st.prefixes(doc, jo)
	}
	if err := st.checkContexts(doc); err != nil {
		return err
	}
	var nodeMap map[string]any
	err := st.protect(func() error {
		expanded, err := ld.NewJsonLdProcessor().Expand(doc, jo)
		if err != nil {
			return err
		}
		if err := st.checkExpanded(expanded); err != nil {
			return err
		}
		st.issuer = ld.NewIdentifierIssuer(blankPrefix)
		nodeMap = map[string]any{"@default": map[string]any{}}
		_, err = ld.NewJsonLdApi().GenerateNodeMap(expanded, nodeMap, "@default", st.issuer, "", "", nil)
		return err
	})
	if err != nil {
		return st.ldError(err)
	}
	st.out = st.out[:0]
	if err := st.protect(func() error { return st.nodeMapToRDF(nodeMap) }); err != nil {
		return err
	}
	st.out = relabelBlanks(st.out, strings.TrimPrefix(blankPrefix, "_:"))
	if wantPrefixes {
		for _, p := range usedPrefixes(prefixes, inlineTerms(doc), st.out) {
			ps.AddPrefix(p.Name, p.IRI)
		}
	}
	for _, q := range st.out {
		if err := st.sink.AddQuad(q); err != nil {
			return err
		}
	}
	st.out = st.out[:0]
	return nil
}

// inlineTerms returns the terms the top-level @context of doc defines
// inline (in JSON objects, not through remote contexts).
func inlineTerms(doc any) map[string]bool {
	terms := map[string]bool{}
	add := func(c any) {
		for _, e := range arrayOf(c) {
			if m, ok := e.(map[string]any); ok {
				for k := range m {
					terms[k] = true
				}
			}
		}
	}
	for _, e := range arrayOf(doc) {
		if m, ok := e.(map[string]any); ok {
			add(m["@context"])
		}
	}
	return terms
}

func arrayOf(v any) []any {
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}

// usedPrefixes keeps the prefixes defined inline in the document and those
// from remote contexts (such as schema.org's 70-odd) that some IRI of the
// output starts with. @vocab (the empty name) counts as inline.
func usedPrefixes(prefixes []rdf.Prefix, inline map[string]bool, quads []rdf.Quad) []rdf.Prefix {
	namespaces := map[string]bool{}
	addIRI := func(iri string) {
		for i := 0; i < len(iri); i++ {
			if c := iri[i]; c == '/' || c == '#' {
				namespaces[iri[:i+1]] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, q := range quads {
		for _, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
			v := t.Value
			if t.IsLiteral() {
				v = t.Datatype
			} else if !t.IsIRI() {
				continue
			}
			if !seen[v] {
				seen[v] = true
				addIRI(v)
			}
		}
	}
	var out []rdf.Prefix
	for _, p := range prefixes {
		if p.Name == "" || inline[p.Name] || namespaces[p.IRI] {
			out = append(out, p)
		}
	}
	return out
}

// prefixes returns the prefixes defined by the top-level @context of doc:
// terms (without ':') whose IRI ends in '/' or '#', and @vocab as the empty
// prefix when no term names its IRI. Sorted by name; errors are ignored
// here (expansion reports them).
func (st *state) prefixes(doc any, jo *ld.JsonLdOptions) []rdf.Prefix {
	var ctxs []any
	switch d := doc.(type) {
	case map[string]any:
		if c, ok := d["@context"]; ok {
			ctxs = append(ctxs, c)
		}
	case []any:
		for _, e := range d {
			if m, ok := e.(map[string]any); ok {
				if c, ok := m["@context"]; ok {
					ctxs = append(ctxs, c)
				}
			}
		}
	}
	if len(ctxs) == 1 {
		if u, ok := ctxs[0].(string); ok {
			if ps, ok := st.prefixCache[u]; ok {
				return ps
			}
			ps := st.collectPrefixes(ctxs, jo)
			st.prefixCache[u] = ps
			return ps
		}
	}
	return st.collectPrefixes(ctxs, jo)
}

// collectPrefixes processes the contexts and extracts their prefixes.
func (st *state) collectPrefixes(ctxs []any, jo *ld.JsonLdOptions) []rdf.Prefix {
	found := map[string]string{}
	vocab := ""
	for _, c := range ctxs {
		_ = st.protect(func() error {
			ctx, err := ld.NewContext(nil, jo.Copy()).Parse(ld.CloneDocument(c))
			if err != nil {
				return err
			}
			for name, iri := range ctx.GetPrefixes(true) {
				found[name] = iri
			}
			if v := ctx.Values.Vocab; v != nil && (strings.HasSuffix(*v, "/") || strings.HasSuffix(*v, "#")) {
				vocab = *v
			}
			return nil
		})
	}
	var out []rdf.Prefix
	covered := false
	for _, name := range sortedKeys(found) {
		iri := found[name]
		if !rdf.IsAbsoluteIRI(iri) {
			continue
		}
		if iri == vocab {
			covered = true
		}
		out = append(out, rdf.Prefix{Name: name, IRI: iri})
	}
	if vocab != "" && !covered && rdf.IsAbsoluteIRI(vocab) {
		out = append([]rdf.Prefix{{Name: "", IRI: vocab}}, out...)
	}
	return out
}

// warn reports a problem once per distinct message, adding what was done
// about it; with Strict it records an error that stops the conversion.
func (st *state) warn(msg, action string) {
	if st.opts.Strict {
		if st.err == nil {
			st.err = &rdf.ParseError{File: st.opts.File, Line: st.line, Column: st.column, Msg: msg}
		}
		return
	}
	if action != "" {
		msg += "; " + action
	}
	if st.warned[msg] || len(st.warned) >= maxWarnings {
		return
	}
	st.warned[msg] = true
	if st.opts.Warn != nil {
		st.opts.Warn(&rdf.ParseError{File: st.opts.File, Line: st.line, Column: st.column, Msg: msg})
	}
}

// fail records a JSON-LD error that stops the conversion.
func (st *state) fail(code, msg string) {
	if st.err == nil {
		st.err = &Error{File: st.opts.File, Code: code, Msg: msg}
	}
}

// nodeTerm converts a node identifier (IRI or "_:" label) to a term; ok is
// false when the triple using it must be dropped.
func (st *state) nodeTerm(id string) (rdf.Term, bool) {
	if label, ok := strings.CutPrefix(id, "_:"); ok {
		return rdf.NewBlank(label), true
	}
	return st.iriTerm(id)
}

func (st *state) iriTerm(iri string) (rdf.Term, bool) {
	if !st.wellFormedIRI(iri) {
		return rdf.Term{}, false
	}
	return rdf.NewIRI(iri), true
}

// wellFormedIRI reports whether a triple using iri may be produced.
// Relative IRIs are always dropped (with a warning); IRIs with characters
// IRIs may not contain are kept with a warning unless DropInvalid is set.
func (st *state) wellFormedIRI(iri string) bool {
	msg := rdf.CheckIRI(iri)
	if msg == "" {
		return true
	}
	if !rdf.IsAbsoluteIRI(iri) {
		st.warn(msg, "triple dropped")
		return false
	}
	if st.opts.DropInvalid {
		st.warn(msg, "triple dropped")
		return false
	}
	st.warn(msg, "kept")
	return true
}

// wellFormedLang reports whether a triple with language tag tag may be
// produced (same policy as for IRIs).
func (st *state) wellFormedLang(tag string) bool {
	if validLangTag(tag) {
		return true
	}
	msg := "language tag " + rdf.QuoteLiteral(tag) + " is not well formed"
	if st.opts.DropInvalid {
		st.warn(msg, "triple dropped")
		return false
	}
	st.warn(msg, "kept")
	return true
}

// validLangTag checks the BCP 47 shape [a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*.
func validLangTag(tag string) bool {
	for i, sub := range strings.Split(tag, "-") {
		if len(sub) < 1 || len(sub) > 8 {
			return false
		}
		for j := 0; j < len(sub); j++ {
			c := sub[j]
			alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if !alpha && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

// emit adds a quad to the output, enforcing limits.
func (st *state) emit(q rdf.Quad) error {
	if st.err != nil {
		return st.err
	}
	if st.lim.MaxQuads > 0 && st.nquads >= st.lim.MaxQuads {
		return limitError(&rdf.ParseError{File: st.opts.File,
			Msg: fmt.Sprintf("more than %d quads", st.lim.MaxQuads)})
	}
	if st.lim.MaxTermLength > 0 {
		for _, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
			if len(t.Value) > st.lim.MaxTermLength {
				return limitError(&rdf.ParseError{File: st.opts.File,
					Msg: fmt.Sprintf("term longer than %d bytes", st.lim.MaxTermLength)})
			}
		}
	}
	st.nquads++
	st.out = append(st.out, q)
	return nil
}

// nodeMapToRDF is the Deserialize JSON-LD to RDF algorithm (JSON-LD 1.1 API
// §8.1) over sorted graph names, subjects and properties.
func (st *state) nodeMapToRDF(nodeMap map[string]any) error {
	for _, gname := range sortedKeys(nodeMap) {
		var g rdf.Term
		if gname != "@default" {
			t, ok := st.nodeTerm(gname)
			if !ok {
				continue
			}
			g = t
		}
		graph, _ := nodeMap[gname].(map[string]any)
		for _, sid := range sortedKeys(graph) {
			s, ok := st.nodeTerm(sid)
			if !ok {
				continue
			}
			node, _ := graph[sid].(map[string]any)
			for _, prop := range sortedKeys(node) {
				values, _ := node[prop].([]any)
				if prop == "@type" {
					for _, v := range values {
						id, _ := v.(string)
						if o, ok := st.nodeTerm(id); ok {
							if err := st.emit(rdf.Quad{S: s, P: rdf.NewIRI(rdf.RDFType), O: o, G: g}); err != nil {
								return err
							}
						}
					}
					continue
				}
				if ld.IsKeyword(prop) {
					continue
				}
				var p rdf.Term
				if label, ok := strings.CutPrefix(prop, "_:"); ok {
					if !st.opts.GeneralizedRDF {
						continue
					}
					p = rdf.NewBlank(label)
				} else if p, ok = st.iriTerm(prop); !ok {
					continue
				}
				for _, item := range values {
					st.pending = st.pending[:0]
					o, ok := st.object(item, g)
					if ok {
						if err := st.emit(rdf.Quad{S: s, P: p, O: o, G: g}); err != nil {
							return err
						}
					}
					for _, q := range st.pending {
						if err := st.emit(q); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	return st.err
}

// object is the Object to RDF Conversion (§8.2). Triples it creates for
// lists and compound literals are appended to st.pending.
func (st *state) object(item any, g rdf.Term) (rdf.Term, bool) {
	m, ok := item.(map[string]any)
	if !ok {
		return rdf.Term{}, false
	}
	if v, ok := m["@value"]; ok {
		return st.value(m, v, g)
	}
	if l, ok := m["@list"]; ok {
		items, _ := l.([]any)
		return st.list(items, g)
	}
	id, _ := m["@id"].(string)
	return st.nodeTerm(id)
}

// value converts a value object.
func (st *state) value(m map[string]any, v any, g rdf.Term) (rdf.Term, bool) {
	dt, isString := m["@type"].(string)
	if _, has := m["@type"]; has && !isString {
		st.fail("invalid typed value", "the @type of a value object must be one IRI")
		return rdf.Term{}, false
	}
	if dt != "" && dt != "@json" {
		if st.opts.DropInvalid && rdf.CheckIRI(dt) != "" {
			st.fail("invalid typed value", rdf.CheckIRI(dt))
			return rdf.Term{}, false
		}
		if !st.wellFormedIRI(dt) {
			return rdf.Term{}, false
		}
	}
	lang, hasLang := m["@language"].(string)
	if hasLang && !st.wellFormedLang(lang) {
		return rdf.Term{}, false
	}
	var lex string
	if dt == "@json" {
		s, err := canonicalJSON(v)
		if err != nil {
			st.warn("cannot canonicalize @json value: "+err.Error(), "triple dropped")
			return rdf.Term{}, false
		}
		lex, dt = s, rdf.RDFJSON
	} else {
		switch x := v.(type) {
		case bool:
			lex = strconv.FormatBool(x)
			if dt == "" {
				dt = rdf.XSDBoolean
			}
		case float64:
			if x != math.Trunc(x) || math.Abs(x) >= 1e21 || dt == rdf.XSDDouble {
				lex = ld.GetCanonicalDouble(x)
				if dt == "" {
					dt = rdf.XSDDouble
				}
			} else {
				lex = "0"
				if x != 0 {
					lex = strconv.FormatFloat(x, 'f', 0, 64)
				}
				if dt == "" {
					dt = rdf.XSDInteger
				}
			}
		case string:
			lex = x
		default:
			return rdf.Term{}, false
		}
	}
	if dir, ok := m["@direction"].(string); ok && st.opts.RDFDirection != "" {
		lower := strings.ToLower(lang)
		switch st.opts.RDFDirection {
		case I18nDatatype:
			return rdf.NewLiteral(lex, i18nBase+lower+"_"+dir), true
		case CompoundLiteral:
			b := rdf.NewBlank(strings.TrimPrefix(st.issuer.GetId(""), "_:"))
			st.pending = append(st.pending, rdf.Quad{S: b, P: rdf.NewIRI(rdf.RDFNS + "value"), O: rdf.NewString(lex), G: g})
			if hasLang {
				st.pending = append(st.pending, rdf.Quad{S: b, P: rdf.NewIRI(rdf.RDFNS + "language"), O: rdf.NewString(lower), G: g})
			}
			st.pending = append(st.pending, rdf.Quad{S: b, P: rdf.NewIRI(rdf.RDFNS + "direction"), O: rdf.NewString(dir), G: g})
			return b, true
		}
	}
	if hasLang && dt == "" {
		return rdf.NewLangString(lex, lang), true
	}
	return rdf.NewLiteral(lex, dt), true
}

// list is the List Conversion (§8.3): it returns the head of an RDF
// collection and appends its triples to st.pending.
func (st *state) list(items []any, g rdf.Term) (rdf.Term, bool) {
	if len(items) == 0 {
		return rdf.NewIRI(rdf.RDFNil), true
	}
	nodes := make([]rdf.Term, len(items))
	for i := range items {
		nodes[i] = rdf.NewBlank(strings.TrimPrefix(st.issuer.GetId(""), "_:"))
	}
	first, rest := rdf.NewIRI(rdf.RDFFirst), rdf.NewIRI(rdf.RDFRest)
	for i, item := range items {
		mark := len(st.pending)
		st.pending = append(st.pending, rdf.Quad{})
		if o, ok := st.object(item, g); ok {
			st.pending[mark] = rdf.Quad{S: nodes[i], P: first, O: o, G: g}
		} else {
			st.pending = append(st.pending[:mark], st.pending[mark+1:]...)
		}
		next := rdf.NewIRI(rdf.RDFNil)
		if i+1 < len(items) {
			next = nodes[i+1]
		}
		st.pending = append(st.pending, rdf.Quad{S: nodes[i], P: rest, O: next, G: g})
	}
	return nodes[0], true
}

// allowedContextKeywords are the keywords a context may define.
var allowedContextKeywords = map[string]bool{
	"@base": true, "@direction": true, "@import": true, "@language": true, "@propagate": true,
	"@protected": true, "@type": true, "@version": true, "@vocab": true,
}

// checkContexts applies checks of the Context Processing and Create Term
// Definition algorithms that json-gold omits: the empty term, keywords that
// may not be redefined, and the restricted form of an @type definition.
func (st *state) checkContexts(v any) error {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if err := st.checkContexts(e); err != nil {
				return err
			}
		}
	case map[string]any:
		if t, _ := x["@type"].(string); t == "@json" {
			return nil // a JSON literal: not JSON-LD
		}
		for _, k := range sortedKeys(x) {
			if k == "@context" {
				if err := st.checkContext(x[k]); err != nil {
					return err
				}
			}
			if err := st.checkContexts(x[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (st *state) checkContext(c any) error {
	switch x := c.(type) {
	case []any:
		for _, e := range x {
			if err := st.checkContext(e); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			switch {
			case k == "":
				return &Error{File: st.opts.File, Code: "invalid term definition", Msg: "the empty string cannot be a term"}
			case k == "@type":
				def, ok := x[k].(map[string]any)
				valid := ok && len(def) > 0
				for dk, dv := range def {
					switch dk {
					case "@container":
						valid = valid && dv == "@set"
					case "@protected":
					default:
						valid = false
					}
				}
				if !valid {
					return &Error{File: st.opts.File, Code: "keyword redefinition",
						Msg: "@type may only be given {\"@container\": \"@set\"} (and @protected)"}
				}
			case keywordLike(termIRI(x[k])) && !ld.IsKeyword(termIRI(x[k])):
				// A term mapped to a reserved keyword-like form ("@ignoreMe")
				// is ignored (Create Term Definition, steps 8 and 14.2.2);
				// json-gold rejects it under @reverse, so drop it here.
				delete(x, k)
			case ld.IsKeyword(k) && !allowedContextKeywords[k]:
				return &Error{File: st.opts.File, Code: "keyword redefinition", Msg: "keyword " + k + " cannot be redefined"}
			}
		}
	}
	return nil
}

// checkExpanded rejects value objects whose @type is not a single string,
// which json-gold's expansion lets through ("invalid typed value").
func (st *state) checkExpanded(v any) error {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if err := st.checkExpanded(e); err != nil {
				return err
			}
		}
	case map[string]any:
		if _, isValue := x["@value"]; isValue {
			if t, has := x["@type"]; has {
				if _, ok := t.(string); !ok {
					return &Error{File: st.opts.File, Code: "invalid typed value",
						Msg: "the @type of a value object must be one IRI"}
				}
			}
			return nil
		}
		for _, k := range sortedKeys(x) {
			if err := st.checkExpanded(x[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// termIRI returns the IRI a term definition maps to (@reverse or @id).
func termIRI(def any) string {
	switch d := def.(type) {
	case string:
		return d
	case map[string]any:
		if r, ok := d["@reverse"].(string); ok {
			return r
		}
		if id, ok := d["@id"].(string); ok {
			return id
		}
	}
	return ""
}

// keywordLike reports whether s has the form of a keyword: "@" followed by
// one or more ASCII letters.
func keywordLike(s string) bool {
	if len(s) < 2 || s[0] != '@' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
