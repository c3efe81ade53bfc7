package jsonld

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/excerpt"
	"github.com/isolda/isolda/rdf/jsonld/internal/fromrdf"
	"github.com/isolda/isolda/rdf/jsonld/internal/jcs"
	"github.com/isolda/isolda/rdf/jsonld/internal/jsonpos"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
	"github.com/isolda/isolda/rdf/jsonld/internal/relabel"
)

// maxWarnings bounds the distinct warnings remembered (and reported) per
// document, so that hostile input cannot grow the set without bound.
const maxWarnings = 1000

// state is the conversion of one input (a document or an HTML page) to quads.
type state struct {
	sink   rdf.Sink
	opts   Options
	lim    rdf.Limits
	loader DocumentLoader

	issuer  *ldproc.IdentifierIssuer
	nquads  int64
	warned  map[string]bool
	err     error // first error from a strict warning
	pending []rdf.Quad
	out     []rdf.Quad // the current document's quads, sent once complete

	prefixCache map[string][]rdf.Prefix // by context URL
	// shared holds the active contexts made by applying a context URL to
	// an empty context, shared by the documents of one input.
	shared *ldproc.SharedContexts

	// data is the JSON text of the current document (past a byte order
	// mark), if known, to locate errors; origin is where it begins in the
	// input (the zero loc for a whole file, else an HTML script's text).
	data   []byte
	origin loc
	// suspects maps the strings of the current document that a later
	// warning or error may be about (IRIs and language tags that are not
	// well formed, terms longer than the limit) to the path of the first
	// value that gives them: no position survives the node map, so the
	// conversion to RDF finds them here.
	suspects map[string][]any
}

// setDocument makes text (beginning at start, past a byte order mark) the
// current document.
func (st *state) setDocument(text []byte, start loc) {
	st.data = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	st.origin = start
	st.suspects = map[string][]any{}
}

// locate returns the position of the value at path in the current
// document.
func (st *state) locate(path []any) loc {
	if st.data == nil {
		return st.origin.begin()
	}
	return st.origin.at(st.data, jsonpos.Offset(st.data, path))
}

// docStart returns the position of the current document's value.
func (st *state) docStart() loc { return st.locate(nil) }

// docEnd returns the position just after the current document's value.
func (st *state) docEnd() loc {
	return st.origin.at(st.data, len(bytes.TrimRight(st.data, " \t\r\n")))
}

// suspect records path as where the document first gives s, a string that
// a later warning or error may be about, for at most maxWarnings strings.
func (st *state) suspect(s string, path []any) {
	if st.suspects == nil || len(st.suspects) >= maxWarnings {
		return
	}
	if _, ok := st.suspects[s]; !ok {
		st.suspects[s] = slices.Clone(path)
	}
}

// about returns a function locating the first value that gives s (see
// suspect), or the document's value when s was not recorded.
func (st *state) about(s string) func() loc {
	return func() loc {
		if path, ok := st.suspects[s]; ok {
			return st.locate(path)
		}
		return st.docStart()
	}
}

// tooLong reports whether s is longer than the term length limit.
func (st *state) tooLong(s string) bool {
	return st.lim.MaxTermLength > 0 && len(s) > st.lim.MaxTermLength
}

func newState(sink rdf.Sink, opts Options) *state {
	l := opts.Loader
	if l == nil {
		l = NewLoader(opts)
	}
	lim := opts.Limits.WithDefaults()
	return &state{sink: sink, opts: opts, lim: lim, loader: newGuardedLoader(l, lim.MaxDepth),
		warned: map[string]bool{}, prefixCache: map[string][]rdf.Prefix{},
		shared: ldproc.NewSharedContexts()}
}

// protect runs f, turning a panic inside the JSON-LD algorithms into an
// error.
func (st *state) protect(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &Error{File: st.opts.File, Code: "processor failure",
				Msg: fmt.Sprintf("internal error in the JSON-LD processor: %v", r)}
		}
	}()
	return f()
}

// ldError converts an error of the algorithms or of a DocumentLoader to
// *Error.
func (st *state) ldError(err error) error {
	if err == nil {
		return nil
	}
	var pe *rdf.ParseError
	var je *Error
	if errors.As(err, &je) || errors.As(err, &pe) {
		return err
	}
	var le *ldproc.Error
	if errors.As(err, &le) {
		return &Error{File: st.opts.File, Code: le.Code, Msg: le.Msg, Err: err}
	}
	return &Error{File: st.opts.File, Code: "processor failure", Msg: err.Error(), Err: err}
}

// document converts one parsed JSON document: prefixes first, then quads.
// blankPrefix is the label prefix of its blank nodes, including "_:".
func (st *state) document(doc any, base, blankPrefix string) error {
	switch doc.(type) {
	case map[string]any, []any:
	default:
		return st.docStart().parseError(st.opts.File, "a JSON-LD document must be a JSON object or array")
	}
	st.issuer = ldproc.NewIdentifierIssuer(blankPrefix)
	var nodeMap map[string]any
	err := st.protect(func() error {
		var err error
		nodeMap, err = st.toNodeMap(doc, base)
		return err
	})
	if err != nil {
		return st.positioned(err)
	}
	st.out = st.out[:0]
	if err := st.protect(func() error { return st.nodeMapToRDF(nodeMap) }); err != nil {
		return st.positioned(err)
	}
	st.out = relabel.Blanks(st.out, strings.TrimPrefix(blankPrefix, "_:"))
	// Prefixes come from the contexts once the document has been read (and
	// its contexts reported on).
	if ps, ok := st.sink.(rdf.PrefixSink); ok {
		prefixes := st.prefixes(doc, base)
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

// toNodeMap expands doc with package ldproc's JSON-LD 1.1 expansion and
// generates its node map.
func (st *state) toNodeMap(doc any, base string) (map[string]any, error) {
	pr := ldproc.New(env{st}, st.config())
	var ec any
	if st.opts.ExpandContext != nil {
		ec = st.opts.ExpandContext
	}
	expanded, err := pr.Expand(doc, base, ec)
	if err != nil {
		err = fromLD(err)
		if je, ok := err.(*Error); ok && st.data != nil && je.Line == 0 {
			at := st.locate(pr.Path())
			je.Line, je.Column, je.Offset = at.line, at.col, at.off
		}
		return nil, err
	}
	if st.err != nil {
		return nil, st.err
	}
	nodeMap, err := ldproc.NodeMap(expanded, st.issuer)
	return nodeMap, fromLD(err)
}

// positioned gives a JSON-LD error the file name and, if it has none, the
// position of the current document.
func (st *state) positioned(err error) error {
	if je, ok := err.(*Error); ok {
		je.File = st.opts.File
		if je.Line == 0 {
			at := st.docStart()
			je.Line, je.Column, je.Offset = at.line, at.col, at.off
		}
		return je
	}
	return err
}

// inlineTerms returns the terms the top-level @context of doc defines
// inline (in JSON objects, not through remote contexts).
func inlineTerms(doc any) map[string]bool {
	terms := map[string]bool{}
	add := func(c any) {
		for _, e := range ldproc.ArrayOf(c) {
			if m, ok := e.(map[string]any); ok {
				for k := range m {
					terms[k] = true
				}
			}
		}
	}
	for _, e := range ldproc.ArrayOf(doc) {
		if m, ok := e.(map[string]any); ok {
			add(m["@context"])
		}
	}
	return terms
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
func (st *state) prefixes(doc any, base string) []rdf.Prefix {
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
			ps := st.collectPrefixes(ctxs, base)
			st.prefixCache[u] = ps
			return ps
		}
	}
	return st.collectPrefixes(ctxs, base)
}

// collectPrefixes processes the contexts and extracts their prefixes.
func (st *state) collectPrefixes(ctxs []any, base string) []rdf.Prefix {
	found := map[string]string{}
	vocab := ""
	pr := ldproc.New(env{st}, st.config())
	for _, c := range ctxs {
		_ = st.protect(func() error {
			terms, v, err := pr.Prefixes(c, base)
			if err != nil {
				return err
			}
			for name, iri := range terms {
				if strings.HasSuffix(iri, "/") || strings.HasSuffix(iri, "#") {
					found[name] = iri
				}
			}
			if strings.HasSuffix(v, "/") || strings.HasSuffix(v, "#") {
				vocab = v
			}
			return nil
		})
	}
	var out []rdf.Prefix
	covered := false
	for _, name := range slices.Sorted(maps.Keys(found)) {
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

// warn reports a problem about the string s (an IRI, language tag or
// literal of the document) once per distinct message, adding what was done
// about it; with Strict it records an error that stops the conversion.
func (st *state) warn(s, msg, action string) { st.warnAt(msg, action, st.about(s)) }

// warnAt is warn with a function that locates the problem, called only
// when the warning is reported.
func (st *state) warnAt(msg, action string, pos func() loc) {
	msg = excerpt.Shorten(msg)
	if st.opts.Strict {
		if st.err == nil {
			st.err = pos().parseError(st.opts.File, msg)
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
		st.opts.Warn(pos().parseError(st.opts.File, msg))
	}
}

// fail records a JSON-LD error about the string s that stops the
// conversion.
func (st *state) fail(s, code, msg string) {
	if st.err == nil {
		at := st.about(s)()
		st.err = &Error{File: st.opts.File, Line: at.line, Column: at.col, Offset: at.off, Code: code, Msg: msg}
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
	msg := ldproc.CheckIRI(iri)
	if msg == "" {
		return true
	}
	if !rdf.IsAbsoluteIRI(iri) || st.opts.DropInvalid {
		st.warn(iri, msg, "triple dropped")
		return false
	}
	st.warn(iri, msg, "kept")
	return true
}

// wellFormedLang reports whether a triple with language tag tag may be
// produced, by the reader policy of package rdf: a tag that is not
// well-formed BCP 47 is kept with a warning (dropped with DropInvalid, as
// the JSON-LD to RDF algorithm says), one that no RDF syntax can write
// (rdf.CheckLangTag) is dropped with a warning.
func (st *state) wellFormedLang(tag string) bool {
	msg, writable := rdf.CheckLangTag(tag)
	if msg == "" {
		return true
	}
	if st.opts.DropInvalid || !writable {
		st.warn(tag, msg, "triple dropped")
		return false
	}
	st.warn(tag, msg, "kept")
	return true
}

// emit adds a quad to the output, enforcing limits.
func (st *state) emit(q rdf.Quad) error {
	if st.err != nil {
		return st.err
	}
	if st.lim.MaxQuads > 0 && st.nquads >= st.lim.MaxQuads {
		// The document as a whole gives more quads: reported at its end.
		return limitError(st.docEnd().parseError(st.opts.File,
			fmt.Sprintf("more than %d quads", st.lim.MaxQuads)))
	}
	if st.lim.MaxTermLength > 0 {
		for _, t := range [...]rdf.Term{q.S, q.P, q.O, q.G} {
			if st.tooLong(t.Value) {
				return limitError(st.about(t.Value)().parseError(st.opts.File,
					fmt.Sprintf("term longer than %d bytes", st.lim.MaxTermLength)))
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
	for _, gname := range slices.Sorted(maps.Keys(nodeMap)) {
		var g rdf.Term
		if gname != "@default" {
			t, ok := st.nodeTerm(gname)
			if !ok {
				continue
			}
			g = t
		}
		graph, _ := nodeMap[gname].(map[string]any)
		for _, sid := range slices.Sorted(maps.Keys(graph)) {
			s, ok := st.nodeTerm(sid)
			if !ok {
				continue
			}
			node, _ := graph[sid].(map[string]any)
			for _, prop := range slices.Sorted(maps.Keys(node)) {
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
				if ldproc.IsKeyword(prop) {
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
		st.fail("", "invalid typed value", "the @type of a value object must be one IRI")
		return rdf.Term{}, false
	}
	if dt != "" && dt != "@json" {
		if st.opts.DropInvalid && ldproc.CheckIRI(dt) != "" {
			st.fail(dt, "invalid typed value", ldproc.CheckIRI(dt))
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
		s, err := jcs.Canonical(v)
		if err != nil {
			st.warnAt("cannot canonicalize @json value: "+err.Error(), "triple dropped", st.docStart)
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
				lex = ldproc.CanonicalDouble(x)
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
	if dir, ok := m["@direction"].(string); ok {
		lower := strings.ToLower(lang)
		switch st.opts.RDFDirection {
		case "", DirLangString:
			if hasLang && dt == "" {
				t := rdf.NewLangString(lex, lang)
				t.Datatype, t.Dir = rdf.RDFDirLangString, dir
				return t, true
			}
			if dt == "" {
				st.warn(ldproc.DirectionAlone, "base direction "+excerpt.Quote(dir)+
					" without a language tag: RDF 1.2 has no such literal", "kept as a plain string")
			}
		case I18nDatatype:
			return rdf.NewLiteral(lex, fromrdf.I18nBase+lower+"_"+dir), true
		case CompoundLiteral:
			b := rdf.NewBlank(strings.TrimPrefix(st.issuer.ID(""), "_:"))
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
		nodes[i] = rdf.NewBlank(strings.TrimPrefix(st.issuer.ID(""), "_:"))
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
