package ldproc

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// This file implements the Context Processing algorithms of the JSON-LD
// 1.1 Processing Algorithms and API (§4.1 Context Processing, §4.2 Create
// Term Definition) and IRI Expansion (§5.2).

// maxRemoteContexts bounds the chain of remote contexts one context may
// include (the "processor defined limit" of Context Processing step 5.2.3).
const maxRemoteContexts = 32

// maxMemoContextBytes is the size up to which inline contexts are
// remembered by their JSON text.
const maxMemoContextBytes = 4096

// Container flags of a term definition.
const (
	cList = 1 << iota
	cSet
	cIndex
	cLanguage
	cID
	cType
	cGraph
)

var containerFlags = map[string]int{
	"@list": cList, "@set": cSet, "@index": cIndex, "@language": cLanguage,
	"@id": cID, "@type": cType, "@graph": cGraph,
}

// termDef is a term definition.
type termDef struct {
	iri       string // IRI mapping; "" with nullIRI for a null mapping
	nullIRI   bool
	reverse   bool
	prefix    bool
	protected bool
	typ       string // type mapping, "" if none
	hasLang   bool   // a language mapping is present ...
	lang      string // ... with this value
	langNull  bool   // ... which is null
	hasDir    bool   // a direction mapping is present ...
	dir       string // ... with this value ("" for null)
	container int
	index     string
	nest      string
	context   any // scoped context, if hasContext
	hasCtx    bool
	baseURL   string
}

// sameDef compares two term definitions, ignoring the protected flag.
func sameDef(a, b *termDef) bool {
	x, y := *a, *b
	x.protected, y.protected = false, false
	xc, yc := x.context, y.context
	x.context, y.context = nil, nil
	return x == y && reflect.DeepEqual(xc, yc)
}

// context is an active context.
type context struct {
	terms        map[string]*termDef
	base         string
	hasBase      bool
	originalBase string
	vocab        string
	hasVocab     bool
	lang         string
	dir          string
	previous     *context
	mode         string // processing mode
	initial      bool   // a new context, with no definitions
}

func newContext(base, mode string) *context {
	return &context{terms: map[string]*termDef{}, base: base, hasBase: base != "", originalBase: base, mode: mode,
		initial: true}
}

func (c *context) clone() *context {
	n := *c
	n.initial = false
	n.terms = maps.Clone(c.terms)
	return &n
}

func (c *context) is10() bool { return c.mode == JSONLD10 }

// ldError returns a JSON-LD error with the given code.
func ldErr(code, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// isKeyword reports whether s is a JSON-LD 1.1 keyword.
func isKeyword(s string) bool {
	switch s {
	case "@base", "@container", "@context", "@default", "@direction", "@embed", "@explicit",
		"@graph", "@id", "@import", "@included", "@index", "@json", "@language", "@list",
		"@nest", "@none", "@omitDefault", "@prefix", "@preserve", "@protected", "@propagate",
		"@requireAll", "@reverse", "@set", "@type", "@value", "@version", "@vocab":
		return true
	}
	return false
}

// IsGenDelim reports whether c is an RFC 3986 gen-delim.
func IsGenDelim(c byte) bool { return strings.IndexByte(":/?#[]@", c) >= 0 }

// ctxProc holds what context processing needs beyond the contexts: the
// document loader and a cache of dereferenced remote contexts.
type ctxProc struct {
	env    Env
	cfg    Config
	x      *expander      // the expander using it, if any, to locate warnings
	cache  map[string]any // URL -> the @context of the loaded document
	memo   map[scopeKey]*context
	remote int // remote context references processed
}

// scopeKey identifies the result of applying a scoped context (def) or a
// context URL (url) to an active context. Active contexts are never
// modified once built, so results can be shared.
type scopeKey struct {
	active    *context
	def       *termDef
	url       string
	override  bool
	propagate bool
	inline    bool // url is the JSON text of an inline context
}

// warn reports a warning at the value the expander is working on (at the
// document's value when no expander uses p).
func (p *ctxProc) warn(msg, action string) {
	var path []any
	if p.x != nil {
		path = p.x.path
	}
	p.env.Warn(msg, action, path)
}

func newCtxProc(env Env, cfg Config) *ctxProc {
	if cfg.Shared == nil {
		cfg.Shared = NewSharedContexts()
	}
	return &ctxProc{env: env, cfg: cfg, cache: map[string]any{}, memo: map[scopeKey]*context{}}
}

// scoped applies the scoped context of term definition d to active.
func (p *ctxProc) scoped(active *context, d *termDef, override, propagate bool) (*context, error) {
	k := scopeKey{active: active, def: d, override: override, propagate: propagate}
	if c, ok := p.memo[k]; ok {
		return c, nil
	}
	c, err := p.process(active, d.context, d.baseURL, nil, override, propagate, true)
	if err != nil {
		return nil, err
	}
	p.memo[k] = c
	return c, nil
}

// embedded applies the @context entry lc of a node object to active;
// results for context URLs are shared.
func (p *ctxProc) embedded(active *context, lc any, baseURL string) (*context, error) {
	u, isURL := lc.(string)
	if !isURL {
		// An inline context, often repeated on every object of an array:
		// keyed by its JSON text when small.
		if j := jsonKey(lc); len(j) > 1 && len(j) <= maxMemoContextBytes {
			k := scopeKey{active: active, url: baseURL + "\x00" + j, inline: true}
			if c, ok := p.memo[k]; ok {
				return c, nil
			}
			c, err := p.process(active, lc, baseURL, nil, false, true, true)
			if err != nil {
				return nil, err
			}
			p.memo[k] = c
			return c, nil
		}
	}
	k := scopeKey{active: active, url: baseURL + "\x00" + u, propagate: true}
	// A context URL applied to an empty context (the usual
	// "@context": "https://schema.org") is shared by the documents of one
	// input, such as the scripts of an HTML page.
	shared := ""
	if isURL && active.initial && active.previous == nil {
		shared = active.mode + "\x00" + active.base + "\x00" + baseURL + "\x00" + u
		if c, ok := p.cfg.Shared.m[shared]; ok {
			return c, nil
		}
	}
	if isURL {
		if c, ok := p.memo[k]; ok {
			return c, nil
		}
	}
	c, err := p.process(active, lc, baseURL, nil, false, true, true)
	if err != nil {
		return nil, err
	}
	if isURL {
		p.memo[k] = c
	}
	if shared != "" {
		p.cfg.Shared.m[shared] = c
	}
	return c, nil
}

// load dereferences a remote context document and returns its @context.
func (p *ctxProc) load(u string, code string) (any, error) {
	if c, ok := p.cache[u]; ok {
		return c, nil
	}
	rd, err := p.env.LoadDocument(u)
	if err != nil {
		if le := p.env.LoadError(err); p.code(le) == ContextOverflow {
			return nil, le
		}
		return nil, &Error{Code: code, Msg: u + ": " + loadFailure(err), Err: err}
	}
	m, ok := rd.Document.(map[string]any)
	if !ok {
		return nil, ldErr("invalid remote context", "%s is not a JSON object", u)
	}
	c, ok := m["@context"]
	if !ok {
		return nil, ldErr("invalid remote context", "%s has no @context entry", u)
	}
	p.cache[u] = c
	return c, nil
}

// process is the Context Processing algorithm (§4.1.2).
func (p *ctxProc) process(active *context, local any, baseURL string, remote []string,
	overrideProtected, propagate, validateScoped bool) (*context, error) {
	result := active.clone()
	if m, ok := local.(map[string]any); ok {
		if v, ok := m["@propagate"]; ok {
			b, ok := v.(bool)
			if !ok {
				return nil, ldErr("invalid @propagate value", "%v", v)
			}
			propagate = b
		}
	}
	if !propagate && result.previous == nil {
		result.previous = active
	}
	for _, ctx := range ArrayOf(local) {
		switch c := ctx.(type) {
		case nil:
			if !overrideProtected {
				for _, name := range sortedKeys(result.terms) {
					if result.terms[name].protected {
						return nil, ldErr("invalid context nullification", "term %q is protected", name)
					}
				}
			}
			prev := result
			result = newContext(active.originalBase, active.mode)
			if !propagate {
				result.previous = prev
			}
			continue
		case string:
			u := rdf.ResolveIRI(baseURL, c)
			if !validateScoped && slices.Contains(remote, u) {
				continue
			}
			if slices.Contains(remote, u) {
				return nil, ldErr("recursive context inclusion", "%s", u)
			}
			if len(remote) >= maxRemoteContexts {
				return nil, ldErr("context overflow", "more than %d nested remote contexts", maxRemoteContexts)
			}
			p.remote++
			if p.remote > MaxContextLoads {
				return nil, ldErr("context overflow", "more than %d remote context references", MaxContextLoads)
			}
			// The chain of contexts being included: siblings in an array
			// (such as a context listed twice) do not extend it.
			chain := append(slices.Clip(remote), u)
			loaded, err := p.load(u, "loading remote context failed")
			if err != nil {
				return nil, err
			}
			r, err := p.process(result, loaded, u, chain, false, true, validateScoped)
			if err != nil {
				return nil, err
			}
			result = r
			continue
		case map[string]any:
			if err := p.processDefinition(result, c, baseURL, remote, overrideProtected); err != nil {
				return nil, err
			}
		default:
			return nil, ldErr("invalid local context", "a context must be an object, a string or null")
		}
	}
	return result, nil
}

// processDefinition applies one context definition (steps 5.5 to 5.13)
// to result.
func (p *ctxProc) processDefinition(result *context, c map[string]any, baseURL string, remote []string,
	overrideProtected bool) error {
	if v, ok := c["@version"]; ok {
		if f, ok := v.(float64); !ok || f != 1.1 {
			return ldErr("invalid @version value", "%v", v)
		}
		if result.is10() {
			return ldErr("processing mode conflict", "@version 1.1 in json-ld-1.0 mode")
		}
	}
	if v, ok := c["@import"]; ok {
		if result.is10() {
			return ldErr("invalid context entry", "@import in json-ld-1.0 mode")
		}
		s, ok := v.(string)
		if !ok {
			return ldErr("invalid @import value", "%v", v)
		}
		u := rdf.ResolveIRI(baseURL, s)
		imported, err := p.load(u, "loading remote context failed")
		if err != nil {
			return err
		}
		im, ok := imported.(map[string]any)
		if !ok {
			return ldErr("invalid remote context", "imported context %s is not an object", u)
		}
		if _, ok := im["@import"]; ok {
			return ldErr("invalid context entry", "imported context %s has @import", u)
		}
		merged := maps.Clone(im)
		maps.Copy(merged, c)
		c = merged
	}
	if v, ok := c["@base"]; ok && len(remote) == 0 {
		switch b := v.(type) {
		case nil:
			result.base, result.hasBase = "", false
		case string:
			switch {
			case rdf.IsAbsoluteIRI(b):
				result.base, result.hasBase = b, true
			case result.hasBase:
				result.base = rdf.ResolveIRI(result.base, b)
			default:
				return ldErr("invalid base IRI", "relative @base %q with no base IRI", b)
			}
		default:
			return ldErr("invalid base IRI", "%v", v)
		}
	}
	if v, ok := c["@vocab"]; ok {
		switch s := v.(type) {
		case nil:
			result.vocab, result.hasVocab = "", false
		case string:
			if result.is10() && !rdf.IsAbsoluteIRI(s) && !strings.HasPrefix(s, "_:") {
				return ldErr("invalid vocab mapping", "relative @vocab in json-ld-1.0 mode")
			}
			iri, ok, err := p.expandIRI(result, s, true, true, nil)
			if err != nil {
				return err
			}
			if !ok {
				return ldErr("invalid vocab mapping", "%q", s)
			}
			result.vocab, result.hasVocab = iri, true
		default:
			return ldErr("invalid vocab mapping", "%v", v)
		}
	}
	if v, ok := c["@language"]; ok {
		switch s := v.(type) {
		case nil:
			result.lang = ""
		case string:
			result.lang = s
		default:
			return ldErr("invalid default language", "%v", v)
		}
	}
	if v, ok := c["@direction"]; ok {
		if result.is10() {
			return ldErr("invalid context entry", "@direction in json-ld-1.0 mode")
		}
		switch v {
		case nil:
			result.dir = ""
		case "ltr", "rtl":
			result.dir = v.(string)
		default:
			return ldErr("invalid base direction", "%v", v)
		}
	}
	if _, ok := c["@propagate"]; ok && result.is10() {
		return ldErr("invalid context entry", "@propagate in json-ld-1.0 mode")
	}
	protected := false
	if v, ok := c["@protected"]; ok {
		b, ok := v.(bool)
		if !ok {
			return ldErr("invalid @protected value", "%v", v)
		}
		protected = b
	}
	ds := &defState{local: c, defined: map[string]bool{}, baseURL: baseURL, protected: protected,
		override: overrideProtected, remote: remote}
	for _, key := range sortedKeys(c) {
		switch key {
		case "@base", "@direction", "@import", "@language", "@propagate", "@protected", "@version", "@vocab":
			continue
		}
		if err := p.createTerm(result, ds, key); err != nil {
			return err
		}
	}
	return nil
}

// defState is the state of the Create Term Definition calls for one
// context definition: the local context, the defined map and the
// parameters shared by all calls.
type defState struct {
	local     map[string]any
	defined   map[string]bool
	baseURL   string
	protected bool
	override  bool
	remote    []string
}

// createTerm is the Create Term Definition algorithm (§4.2.2).
func (p *ctxProc) createTerm(active *context, ds *defState, term string) error {
	local, defined, baseURL, overrideProtected, remote := ds.local, ds.defined, ds.baseURL, ds.override, ds.remote
	if done, ok := defined[term]; ok {
		if done {
			return nil
		}
		return ldErr("cyclic IRI mapping", "term %q", term)
	}
	if term == "" {
		return ldErr("invalid term definition", "the empty string cannot be a term")
	}
	defined[term] = false
	value := local[term]
	if term == "@type" && !active.is10() {
		if m, ok := value.(map[string]any); ok && len(m) > 0 {
			valid := true
			for k, v := range m {
				switch k {
				case "@container":
					valid = valid && v == "@set"
				case "@protected":
				default:
					valid = false
				}
			}
			if !valid {
				return ldErr("keyword redefinition", "@type may only be given {\"@container\": \"@set\"}")
			}
		} else {
			return ldErr("keyword redefinition", "@type")
		}
	} else if isKeyword(term) {
		return ldErr("keyword redefinition", "keyword %s cannot be redefined", term)
	} else if keywordLike(term) {
		p.warn(fmt.Sprintf("JSON-LD term %q has the form of a keyword", term), "ignored")
		defined[term] = true
		return nil
	}
	previous := active.terms[term]
	delete(active.terms, term)
	var m map[string]any
	simple := false
	switch v := value.(type) {
	case nil:
		m = map[string]any{"@id": nil}
	case string:
		m = map[string]any{"@id": v}
		simple = true
	case map[string]any:
		m = v
	default:
		return ldErr("invalid term definition", "term %q: a definition must be a string, an object or null", term)
	}
	def := &termDef{protected: ds.protected}
	if v, ok := m["@protected"]; ok {
		if active.is10() {
			return ldErr("invalid term definition", "@protected in json-ld-1.0 mode")
		}
		b, ok := v.(bool)
		if !ok {
			return ldErr("invalid @protected value", "%v", v)
		}
		def.protected = b
	}
	if v, ok := m["@type"]; ok {
		s, ok := v.(string)
		if !ok {
			return ldErr("invalid type mapping", "term %q: %v", term, v)
		}
		t, _, err := p.expandIRI(active, s, false, true, ds)
		if err != nil {
			return err
		}
		switch {
		case (t == "@json" || t == "@none") && active.is10():
			return ldErr("invalid type mapping", "term %q: %s in json-ld-1.0 mode", term, t)
		case t == "@id" || t == "@json" || t == "@none" || t == "@vocab":
		case !rdf.IsAbsoluteIRI(t):
			return ldErr("invalid type mapping", "term %q: %q", term, t)
		}
		def.typ = t
	}
	if v, ok := m["@reverse"]; ok {
		if _, ok := m["@id"]; ok {
			return ldErr("invalid reverse property", "term %q has @reverse and @id", term)
		}
		if _, ok := m["@nest"]; ok {
			return ldErr("invalid reverse property", "term %q has @reverse and @nest", term)
		}
		s, ok := v.(string)
		if !ok {
			return ldErr("invalid IRI mapping", "term %q: @reverse %v", term, v)
		}
		if keywordLike(s) {
			p.warn(fmt.Sprintf("JSON-LD @reverse %q has the form of a keyword", s), "ignored")
			defined[term] = true
			return nil
		}
		iri, ok, err := p.expandIRI(active, s, false, true, ds)
		if err != nil {
			return err
		}
		if !ok || !strings.Contains(iri, ":") {
			return ldErr("invalid IRI mapping", "term %q: @reverse %q", term, s)
		}
		def.iri = iri
		if v, ok := m["@container"]; ok {
			switch v {
			case nil:
			case "@set":
				def.container = cSet
			case "@index":
				def.container = cIndex
			default:
				return ldErr("invalid reverse property", "term %q: container %v", term, v)
			}
		}
		def.reverse = true
		if err := p.termIndex(active, term, def, m); err != nil {
			return err
		}
		return p.finishTerm(active, term, def, previous, defined, overrideProtected)
	}
	if v, ok := m["@id"]; ok && v != term {
		if v == nil {
			def.nullIRI = true
		} else {
			s, ok := v.(string)
			if !ok {
				return ldErr("invalid IRI mapping", "term %q: @id %v", term, v)
			}
			if !isKeyword(s) && keywordLike(s) {
				p.warn(fmt.Sprintf("JSON-LD @id %q has the form of a keyword", s), "ignored")
				defined[term] = true
				return nil
			}
			iri, ok, err := p.expandIRI(active, s, false, true, ds)
			if err != nil {
				return err
			}
			if !ok || (!isKeyword(iri) && !strings.Contains(iri, ":")) {
				return ldErr("invalid IRI mapping", "term %q: @id %q", term, s)
			}
			if iri == "@context" {
				return ldErr("invalid keyword alias", "@context cannot be aliased")
			}
			def.iri = iri
			// (JSON-LD 1.0 let such terms map to any IRI.)
			if i := strings.IndexByte(term, ':'); !active.is10() && ((i > 0 && i < len(term)-1) || strings.Contains(term, "/")) {
				defined[term] = true
				x, _, err := p.expandIRI(active, term, false, true, ds)
				if err != nil {
					return err
				}
				if x != iri {
					return ldErr("invalid IRI mapping", "term %q expands to %q, not %q", term, x, iri)
				}
			}
			if !strings.ContainsAny(term, ":/") && simple &&
				(strings.HasPrefix(iri, "_:") || len(iri) > 0 && IsGenDelim(iri[len(iri)-1])) {
				def.prefix = true
			}
		}
	} else if i := strings.IndexByte(term, ':'); i > 0 {
		prefix, suffix := term[:i], term[i+1:]
		if _, ok := local[prefix]; ok {
			if err := p.createTerm(active, ds, prefix); err != nil {
				return err
			}
		}
		if pd, ok := active.terms[prefix]; ok && !pd.nullIRI {
			def.iri = pd.iri + suffix
		} else {
			def.iri = term
		}
	} else if strings.Contains(term, "/") {
		iri, ok, err := p.expandIRI(active, term, false, true, nil)
		if err != nil {
			return err
		}
		if !ok || !rdf.IsAbsoluteIRI(iri) {
			return ldErr("invalid IRI mapping", "term %q", term)
		}
		def.iri = iri
	} else if term == "@type" {
		def.iri = "@type"
	} else if active.hasVocab {
		def.iri = active.vocab + term
	} else {
		return ldErr("invalid IRI mapping", "term %q has no IRI and there is no @vocab", term)
	}
	if v, ok := m["@container"]; ok {
		flags, err := containerMapping(v, active.is10())
		if err != nil {
			return err
		}
		def.container = flags
		if flags&cType != 0 {
			switch def.typ {
			case "":
				def.typ = "@id"
			case "@id", "@vocab":
			default:
				return ldErr("invalid type mapping", "term %q: a type map needs @id or @vocab", term)
			}
		}
	}
	if err := p.termIndex(active, term, def, m); err != nil {
		return err
	}
	if v, ok := m["@context"]; ok {
		if active.is10() {
			return ldErr("invalid term definition", "scoped context in json-ld-1.0 mode")
		}
		if _, err := p.process(active, v, baseURL, slices.Clone(remote), true, true, false); err != nil {
			if p.code(err) == string(ContextOverflow) {
				return err
			}
			return &Error{Code: "invalid scoped context", Msg: fmt.Sprintf("term %q", term), Err: err}
		}
		def.context, def.hasCtx, def.baseURL = v, true, baseURL
	}
	_, hasType := m["@type"]
	if v, ok := m["@language"]; ok && !hasType {
		switch s := v.(type) {
		case nil:
			def.hasLang, def.langNull = true, true
		case string:
			def.hasLang, def.lang = true, s
		default:
			return ldErr("invalid language mapping", "term %q: %v", term, v)
		}
	}
	if v, ok := m["@direction"]; ok && !hasType {
		switch v {
		case nil:
			def.hasDir = true
		case "ltr", "rtl":
			def.hasDir, def.dir = true, v.(string)
		default:
			return ldErr("invalid base direction", "term %q: %v", term, v)
		}
	}
	if v, ok := m["@nest"]; ok {
		if active.is10() {
			return ldErr("invalid term definition", "@nest in json-ld-1.0 mode")
		}
		s, ok := v.(string)
		if !ok || (isKeyword(s) && s != "@nest") {
			return ldErr("invalid @nest value", "term %q: %v", term, v)
		}
		def.nest = s
	}
	if v, ok := m["@prefix"]; ok {
		if active.is10() || strings.ContainsAny(term, ":/") {
			return ldErr("invalid term definition", "term %q: @prefix not allowed", term)
		}
		b, ok := v.(bool)
		if !ok {
			return ldErr("invalid @prefix value", "term %q: %v", term, v)
		}
		def.prefix = b
		if b && isKeyword(def.iri) {
			return ldErr("invalid term definition", "term %q: a keyword alias cannot be a prefix", term)
		}
	}
	for k := range m {
		switch k {
		case "@id", "@reverse", "@container", "@context", "@direction", "@index", "@language",
			"@nest", "@prefix", "@protected", "@type":
		default:
			return ldErr("invalid term definition", "term %q: unexpected entry %q", term, k)
		}
	}
	return p.finishTerm(active, term, def, previous, defined, overrideProtected)
}

// termIndex processes the @index entry of a term definition (step 20).
func (p *ctxProc) termIndex(active *context, term string, def *termDef, m map[string]any) error {
	if v, ok := m["@index"]; ok {
		if active.is10() || def.container&cIndex == 0 {
			return ldErr("invalid term definition", "term %q: @index without an index container", term)
		}
		s, ok := v.(string)
		if !ok {
			return ldErr("invalid term definition", "term %q: @index %v", term, v)
		}
		x, ok, err := p.expandIRI(active, s, false, true, nil)
		if err != nil {
			return err
		}
		if !ok || isKeyword(x) || !strings.Contains(x, ":") {
			return ldErr("invalid term definition", "term %q: @index %q is not an IRI", term, s)
		}
		def.index = s
	}
	return nil
}

// finishTerm applies the protection check (step 27) and stores def.
func (p *ctxProc) finishTerm(active *context, term string, def, previous *termDef, defined map[string]bool,
	overrideProtected bool) error {
	if !overrideProtected && previous != nil && previous.protected {
		if !sameDef(def, previous) {
			return ldErr("protected term redefinition", "term %q is protected", term)
		}
		def = previous
	}
	active.terms[term] = def
	defined[term] = true
	return nil
}

// containerMapping validates an @container value and returns its flags.
func containerMapping(v any, mode10 bool) (int, error) {
	var names []string
	switch c := v.(type) {
	case nil:
		return 0, nil
	case string:
		names = []string{c}
	case []any:
		if mode10 {
			return 0, ldErr("invalid container mapping", "an array container in json-ld-1.0 mode")
		}
		for _, e := range c {
			s, ok := e.(string)
			if !ok {
				return 0, ldErr("invalid container mapping", "%v", v)
			}
			names = append(names, s)
		}
	default:
		return 0, ldErr("invalid container mapping", "%v", v)
	}
	flags := 0
	for _, n := range names {
		f, ok := containerFlags[n]
		if !ok {
			return 0, ldErr("invalid container mapping", "%q", n)
		}
		flags |= f
	}
	if mode10 && flags&(cGraph|cID|cType) != 0 {
		return 0, ldErr("invalid container mapping", "%v in json-ld-1.0 mode", v)
	}
	valid := false
	switch len(names) {
	case 1:
		valid = true
	case 2, 3:
		rest := flags &^ cSet
		switch {
		case flags&cGraph != 0:
			rest &^= cGraph
			valid = rest == 0 || rest == cID || rest == cIndex
		case flags&cSet != 0:
			valid = rest == cIndex || rest == cID || rest == cType || rest == cLanguage
		}
		if len(names) == 3 && flags&cGraph == 0 {
			valid = false
		}
		if len(names) == 3 && flags&cSet == 0 {
			valid = false
		}
	case 0:
		valid = false
	}
	if flags&cList != 0 && len(names) > 1 {
		valid = false
	}
	if !valid {
		return 0, ldErr("invalid container mapping", "%v", v)
	}
	return flags, nil
}

// expandIRI is the IRI Expansion algorithm (§5.2.2). ok is false for a
// null result. An IRI that is not well formed or too long is recorded as a
// suspect (see Env.Suspect) at the value being expanded.
func (p *ctxProc) expandIRI(active *context, value string, docRelative, vocab bool, ds *defState) (string, bool, error) {
	iri, ok, err := p.iriExpansion(active, value, docRelative, vocab, ds)
	if ok && err == nil && p.x != nil && !isKeyword(iri) && !strings.HasPrefix(iri, "_:") &&
		(CheckIRI(iri) != "" || p.env.TooLong(iri)) {
		p.env.Suspect(iri, p.x.path)
	}
	return iri, ok, err
}

func (p *ctxProc) iriExpansion(active *context, value string, docRelative, vocab bool, ds *defState) (string, bool, error) {
	if isKeyword(value) {
		return value, true, nil
	}
	if keywordLike(value) {
		p.warn(fmt.Sprintf("JSON-LD value %q has the form of a keyword", value), "ignored")
		return "", false, nil
	}
	if ds != nil {
		if _, ok := ds.local[value]; ok && !ds.defined[value] {
			if err := p.createTerm(active, ds, value); err != nil {
				return "", false, err
			}
		}
	}
	if d, ok := active.terms[value]; ok {
		if isKeyword(d.iri) {
			return d.iri, true, nil
		}
		if vocab {
			return d.iri, !d.nullIRI, nil
		}
	}
	if i := strings.IndexByte(value, ':'); i > 0 {
		prefix, suffix := value[:i], value[i+1:]
		if prefix == "_" || strings.HasPrefix(suffix, "//") {
			return value, true, nil
		}
		if ds != nil {
			if _, ok := ds.local[prefix]; ok && !ds.defined[prefix] {
				if err := p.createTerm(active, ds, prefix); err != nil {
					return "", false, err
				}
			}
		}
		if d, ok := active.terms[prefix]; ok && !d.nullIRI && (d.prefix || active.is10() && !isKeyword(d.iri)) {
			return d.iri + suffix, true, nil
		}
		if rdf.IsAbsoluteIRI(value) {
			return value, true, nil
		}
	}
	if vocab && active.hasVocab {
		return active.vocab + value, true, nil
	}
	if docRelative {
		if active.hasBase {
			return rdf.ResolveIRI(active.base, value), true, nil
		}
		return value, true, nil
	}
	return value, true, nil
}
