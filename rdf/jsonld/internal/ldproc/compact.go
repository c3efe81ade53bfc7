package ldproc

import (
	"fmt"
	"slices"
	"strings"
)

// This file compacts the expanded JSON-LD that fromrdf.Convert makes: node
// objects with @id, @type and properties whose values are node references,
// value objects and list objects. It is not the general Compaction Algorithm of
// JSON-LD 1.1 (which takes any expanded document): it writes each IRI as a
// term, a vocabulary-relative name, a compact IRI or the IRI itself, and
// each value as a plain string where the key's definition reads it back
// the same, else as an explicit value object or node reference, which
// expansion keeps as they are. Language tags are written as they are (the
// Compaction Algorithm lower-cases them), and every IRI written is checked
// by expanding it again with the reader's own IRI Expansion, so what is
// written reads back to the same dataset. It does linear work: IRIs are
// compacted once per distinct IRI and position kind, compact IRIs are
// found by binary search over the sorted prefix IRIs.

// compactor compacts against one active context.
type compactor struct {
	p      *ctxProc
	active *context
	// byIRI lists, for each IRI, the terms that may be keys for it
	// (see usableKey), shortest first.
	byIRI map[string][]string
	// prefixes are the IRI mappings of the terms that may prefix compact
	// IRIs, sorted, with their terms.
	prefixes []string
	prefixOf map[string][]string
	// Compacted IRIs by position kind.
	keys, vocabIRIs map[string]keyChoice
	ids             map[string]string
}

// keyChoice is how an IRI is written where vocabulary-relative IRIs are
// expected (keys, @type values, datatypes): the string and, for a term,
// its definition.
type keyChoice struct {
	s   string
	def *termDef
	err error
}

// newCompactor prepares compaction against active.
func newCompactor(p *ctxProc, active *context) *compactor {
	c := &compactor{p: p, active: active, byIRI: map[string][]string{}, prefixOf: map[string][]string{},
		keys: map[string]keyChoice{}, vocabIRIs: map[string]keyChoice{}, ids: map[string]string{}}
	for name, d := range active.terms { // the lists are sorted below
		if d.nullIRI || strings.HasPrefix(name, "@") || isKeyword(d.iri) {
			continue
		}
		if usableKey(d) {
			c.byIRI[d.iri] = append(c.byIRI[d.iri], name)
		}
		if !strings.Contains(name, ":") && (d.prefix || active.is10()) && !d.hasCtx {
			if _, ok := c.prefixOf[d.iri]; !ok {
				c.prefixes = append(c.prefixes, d.iri)
			}
			c.prefixOf[d.iri] = append(c.prefixOf[d.iri], name)
		}
	}
	for _, names := range c.byIRI {
		slices.SortFunc(names, shorterFirst)
	}
	for _, names := range c.prefixOf {
		slices.SortFunc(names, shorterFirst)
	}
	slices.Sort(c.prefixes)
	return c
}

func shorterFirst(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// usableKey reports whether a term may be the key of values of its IRI:
// a plain or @set container, not reverse, nested, JSON-typed nor with a
// scoped context, whose effect on the values this compactor does not
// model.
func usableKey(d *termDef) bool {
	return !d.reverse && !d.hasCtx && d.nest == "" && d.index == "" && d.typ != "@json" &&
		d.container&^cSet == 0
}

// prefixesOf returns the IRI mappings of prefix terms that begin iri, by
// binary search in the sorted list: a string that is not a prefix of iri
// but sorts before it shares some first bytes l with it, and every prefix
// of iri sorting before it is at most l bytes long.
func (c *compactor) prefixesOf(iri string) []string {
	var out []string
	hi := len(iri)
	for {
		i, _ := slices.BinarySearch(c.prefixes, iri[:hi])
		if i < len(c.prefixes) && c.prefixes[i] == iri[:hi] {
			out = append(out, c.prefixes[i])
			if hi == 0 {
				return out
			}
			hi--
			continue
		}
		if i == 0 {
			return out
		}
		prev := c.prefixes[i-1]
		l := 0
		for l < len(prev) && l < hi && prev[l] == iri[l] {
			l++
		}
		if l == len(prev) {
			out = append(out, prev)
			if l == 0 {
				return out
			}
			l--
		}
		hi = l
	}
}

// expandsTo reports whether s expands back to iri.
func (c *compactor) expandsTo(s, iri string, docRelative, vocab bool) bool {
	got, ok, err := c.p.expandIRI(c.active, s, docRelative, vocab, nil)
	return err == nil && ok && got == iri
}

// compactIRIs returns the compact IRIs (prefix:suffix) that may stand for
// iri, shortest first.
func (c *compactor) compactIRIs(iri string) []string {
	var out []string
	for _, ns := range c.prefixesOf(iri) {
		suffix := iri[len(ns):]
		if suffix == "" || strings.HasPrefix(suffix, "//") {
			continue
		}
		for _, name := range c.prefixOf[ns] {
			if cand := name + ":" + suffix; c.active.terms[cand] == nil {
				out = append(out, cand)
			}
		}
	}
	slices.SortFunc(out, shorterFirst)
	return out
}

// id writes a node identifier (@id values, values of @id-typed terms): a
// blank node label, a compact IRI or the IRI.
func (c *compactor) id(iri string) (string, error) {
	if strings.HasPrefix(iri, "_:") {
		return iri, nil
	}
	if s, ok := c.ids[iri]; ok {
		return s, nil
	}
	for _, cand := range append(c.compactIRIs(iri), iri) {
		if c.expandsTo(cand, iri, true, false) {
			c.ids[iri] = cand
			return cand, nil
		}
	}
	return "", fmt.Errorf("the context gives no way to write the IRI <%s> as a node identifier (its scheme is a prefix of the context?)", iri)
}

// vocabIRI writes an IRI where IRIs are vocabulary-relative (@type values,
// datatypes, values of @vocab-typed terms): a term without a scoped
// context, a name relative to @vocab, a compact IRI or the IRI.
func (c *compactor) vocabIRI(iri string) (string, error) {
	if strings.HasPrefix(iri, "_:") {
		return iri, nil
	}
	if k, ok := c.vocabIRIs[iri]; ok {
		return k.s, k.err
	}
	k := c.choose(iri, func(d *termDef) bool { return !d.hasCtx })
	c.vocabIRIs[iri] = k
	return k.s, k.err
}

// key returns how the property iri is written as a key: a term usable as
// a key (usableKey), a name relative to @vocab, a compact IRI or the IRI.
func (c *compactor) key(iri string) keyChoice {
	if k, ok := c.keys[iri]; ok {
		return k
	}
	k := c.choose(iri, usableKey)
	c.keys[iri] = k
	return k
}

// choose returns the first way to write iri vocabulary-relative that
// expands back to it: a term accepted by ok, a name relative to @vocab, a
// compact IRI, the IRI.
func (c *compactor) choose(iri string, ok func(*termDef) bool) keyChoice {
	for _, name := range c.byIRI[iri] {
		if d := c.active.terms[name]; ok(d) && c.expandsTo(name, iri, true, true) {
			return keyChoice{s: name, def: d}
		}
	}
	var cands []string
	if c.active.hasVocab {
		if suffix, found := strings.CutPrefix(iri, c.active.vocab); found && suffix != "" &&
			!strings.ContainsAny(suffix, ":") && !strings.HasPrefix(suffix, "@") {
			cands = append(cands, suffix)
		}
	}
	cands = append(cands, c.compactIRIs(iri)...)
	cands = append(cands, iri)
	for _, cand := range cands {
		if c.active.terms[cand] == nil && c.expandsTo(cand, iri, true, true) {
			return keyChoice{s: cand}
		}
	}
	return keyChoice{err: fmt.Errorf("the context gives no way to write the IRI <%s> as a key or type (its scheme is a prefix of the context?)", iri)}
}

// document compacts the expanded nodes into one document with the given
// @context value.
func (c *compactor) document(nodes []any, ctxValue any) (map[string]any, error) {
	out := make([]any, 0, len(nodes))
	for _, n := range nodes {
		m, err := c.node(n.(map[string]any))
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	doc := map[string]any{}
	if len(out) == 1 {
		doc = out[0].(map[string]any)
	} else {
		doc["@graph"] = out
	}
	if m, ok := ctxValue.(map[string]any); ctxValue != nil && (!ok || len(m) > 0) {
		doc["@context"] = ctxValue // an empty context is left out
	}
	return doc, nil
}

// node compacts a node object.
func (c *compactor) node(n map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(n))
	for _, k := range sortedKeys(n) { // sorted: the first error is always the same
		v := n[k]
		switch k {
		case "@id":
			s, err := c.id(v.(string))
			if err != nil {
				return nil, err
			}
			out["@id"] = s
		case "@type":
			types := v.([]any)
			ts := make([]any, len(types))
			for i, t := range types {
				s, err := c.vocabIRI(t.(string))
				if err != nil {
					return nil, err
				}
				ts[i] = s
			}
			out["@type"] = single(ts)
		case "@graph":
			graph := v.([]any)
			g := make([]any, len(graph))
			for i, gn := range graph {
				m, err := c.node(gn.(map[string]any))
				if err != nil {
					return nil, err
				}
				g[i] = m
			}
			out["@graph"] = g
		default:
			k := c.key(k)
			if k.err != nil {
				return nil, k.err
			}
			values := v.([]any)
			vals := make([]any, len(values))
			for i, x := range values {
				cv, err := c.value(k.def, x.(map[string]any))
				if err != nil {
					return nil, err
				}
				vals[i] = cv
			}
			if k.def != nil && k.def.container&cSet != 0 {
				out[k.s] = vals
			} else {
				out[k.s] = single(vals)
			}
		}
	}
	return out, nil
}

// single returns the one item of a one-item array, else the array.
func single(a []any) any {
	if len(a) == 1 {
		return a[0]
	}
	return a
}

// value compacts a value of a property written under a key whose term
// definition is def (nil for a compact IRI, a vocabulary-relative name or
// an IRI): a plain string where Value Expansion under that key gives the
// value back, else an explicit node reference, value object or list
// object (whose items expand under the same key).
func (c *compactor) value(def *termDef, v map[string]any) (any, error) {
	if l, ok := v["@list"]; ok {
		items := l.([]any)
		out := make([]any, len(items))
		for i, item := range items {
			cv, err := c.value(def, item.(map[string]any))
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return map[string]any{"@list": out}, nil
	}
	if id, ok := v["@id"].(string); ok {
		if def != nil && def.typ == "@vocab" {
			if s, err := c.vocabIRI(id); err == nil && c.expandsTo(s, id, true, true) {
				return s, nil
			}
		}
		s, err := c.id(id)
		if err != nil {
			return nil, err
		}
		if def != nil && def.typ == "@id" {
			return s, nil
		}
		return map[string]any{"@id": s}, nil
	}
	lex, _ := v["@value"].(string)
	dt, typed := v["@type"].(string)
	_, hasLang := v["@language"]
	switch {
	case typed && def != nil && def.typ == dt:
		return lex, nil // the key's type mapping gives the datatype
	case !typed && !hasLang && c.plainString(def):
		return lex, nil
	}
	out := make(map[string]any, len(v))
	for k, x := range v {
		out[k] = x
	}
	if typed {
		s, err := c.vocabIRI(dt)
		if err != nil {
			return nil, err
		}
		out["@type"] = s
	}
	return out, nil
}

// plainString reports whether a string under a key with definition def
// (nil for none) expands to a string with no type, language or direction.
func (c *compactor) plainString(def *termDef) bool {
	lang, dir := c.active.lang != "", c.active.dir != "" && !c.active.is10()
	if def != nil {
		if def.typ != "" && def.typ != "@none" {
			return false
		}
		if def.hasLang {
			lang = !def.langNull
		}
		if def.hasDir {
			dir = def.dir != ""
		}
	}
	return !lang && !dir
}
