// Package ldproc implements the JSON-LD 1.1 Processing Algorithms
// (https://www.w3.org/TR/json-ld11-api/) that work on decoded JSON values:
// Context Processing and Create Term Definition (§4.1, §4.2), IRI
// Expansion (§5.2), the Expansion Algorithm (§5.1), Node Map Generation
// (§7.2) and, for writing, the compaction of the expanded node objects the
// writer makes against an active context (Compactor). Package jsonld turns
// the node map into RDF, reads and writes documents, and supplies, through
// Env, the document loader and the positions of warnings.
//
// Errors are *Error values carrying a JSON-LD error code; the caller gives
// them a file and position. The expander leaves the path of the value it
// was working on (Expander.Path) for that purpose.
package ldproc

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// Processing modes (Config.ProcessingMode).
const (
	JSONLD10 = "json-ld-1.0"
	JSONLD11 = "json-ld-1.1"
)

// MaxContextLoads bounds the remote context references processed for one
// input (and the loads of a guarded loader).
const MaxContextLoads = 1 << 16

// DirectionAlone is the string under which expansion records (see
// Env.Suspect) the first value with a base direction and no language.
const DirectionAlone = "\x00@direction without @language"

// Error is a JSON-LD processing error: an error code of the JSON-LD 1.1
// API, such as "invalid @id value", with details.
type Error struct {
	// Code is the JSON-LD error code, e.g. "invalid IRI mapping".
	Code string
	// Msg gives the details.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error formats the error as "jsonld: CODE: details".
func (e *Error) Error() string {
	msg := "jsonld: " + e.Code
	if e.Msg != "" {
		msg += ": " + e.Msg
	}
	return msg
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Env is what the algorithms need from the conversion that runs them.
type Env interface {
	// Warn reports a problem and what was done about it, at the value at
	// path in the current document (its first value when path is nil).
	Warn(msg, action string, path []any)
	// Suspect records path as where the document first gives s, a string
	// a later warning or error may be about.
	Suspect(s string, path []any)
	// TooLong reports whether s is longer than the term length limit.
	TooLong(s string) bool
	// LoadDocument loads a remote context document.
	LoadDocument(u string) (*RemoteDocument, error)
	// LoadError converts an error of LoadDocument to the error to report.
	LoadError(err error) error
	// ErrorCode returns the JSON-LD error code of an error that is not an
	// *Error (one returned by LoadError), or "".
	ErrorCode(err error) string
}

// Config holds the options of the algorithms.
type Config struct {
	// ProcessingMode is JSONLD11 (when empty) or JSONLD10.
	ProcessingMode string
	// DropInvalid rejects a value whose @type is not a well-formed IRI
	// (the "invalid typed value" error) instead of keeping it.
	DropInvalid bool
	// Shared, if set, holds the active contexts made by applying a
	// context URL to an empty context, shared by the documents of one
	// input (the scripts of an HTML page); nil means a cache of its own.
	Shared *SharedContexts
}

// SharedContexts holds active contexts shared by the processors of one
// input.
type SharedContexts struct {
	m map[string]*context
}

// NewSharedContexts returns an empty SharedContexts.
func NewSharedContexts() *SharedContexts {
	return &SharedContexts{m: map[string]*context{}}
}

// code returns the JSON-LD error code of err, or "".
func (p *ctxProc) code(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	return p.env.ErrorCode(err)
}

// Processor runs the algorithms for one document with one environment.
type Processor struct {
	p *ctxProc
	x *expander
}

// New returns a Processor whose warnings, loads and suspects go to env.
func New(env Env, cfg Config) *Processor {
	p := newCtxProc(env, cfg)
	x := &expander{p: p}
	p.x = x
	return &Processor{p: p, x: x}
}

// Expand expands a whole document (the expand() API method) with base IRI
// base, after applying expandContext (a context value or URL; nil for
// none). The result is always an array.
func (pr *Processor) Expand(doc any, base string, expandContext any) ([]any, error) {
	return pr.x.expandDocument(doc, base, expandContext)
}

// Path returns the path (object keys and array indexes) of the value the
// expander was working on when it returned an error.
func (pr *Processor) Path() []any { return pr.x.path }

// NodeMap runs Node Map Generation on an expanded document, labelling
// blank nodes with issuer: graph name -> subject -> node.
func NodeMap(expanded []any, issuer *IdentifierIssuer) (map[string]any, error) {
	nm := newNodeMapper(issuer)
	if err := nm.generate(expanded, "@default", nil, "", nil); err != nil {
		return nil, err
	}
	return nm.nodeMap, nil
}

// Prefixes processes ctx (a document's top-level @context) against an
// empty context with base IRI base and returns the terms (without ':')
// that map to an IRI, by name, and @vocab if set (else "").
func (pr *Processor) Prefixes(ctx any, base string) (terms map[string]string, vocab string, err error) {
	mode := pr.p.cfg.ProcessingMode
	if mode == "" {
		mode = JSONLD11
	}
	c, err := pr.p.embedded(newContext(base, mode), ctx, base)
	if err != nil {
		return nil, "", err
	}
	terms = map[string]string{}
	for name, d := range c.terms {
		if strings.Contains(name, ":") || d.nullIRI || d.reverse || strings.HasPrefix(name, "@") ||
			strings.HasPrefix(d.iri, "@") {
			continue
		}
		terms[name] = d.iri
	}
	if c.hasVocab {
		vocab = c.vocab
	}
	return terms, vocab, nil
}

// Compactor compacts expanded node objects against an active context.
type Compactor struct{ c *compactor }

// NewCompactor processes the context value local (in JSON-LD 1.1 mode,
// with no base IRI) into the active context of a Compactor.
func NewCompactor(env Env, local any) (*Compactor, error) {
	p := newCtxProc(env, Config{})
	active, err := p.process(newContext("", JSONLD11), local, "", nil, false, true, true)
	if err != nil {
		return nil, err
	}
	return &Compactor{newCompactor(p, active)}, nil
}

// Document compacts the expanded node objects into a document whose
// @context is cv.
func (c *Compactor) Document(nodes []any, cv any) (map[string]any, error) {
	return c.c.document(nodes, cv)
}

// sortedKeys returns the keys of m in byte order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// loadFailure says why a document loader failed (the message of an
// *Error, without its code, which the caller's error gives).
func loadFailure(err error) string {
	var le *Error
	if errors.As(err, &le) && le.Msg != "" {
		return le.Msg
	}
	return err.Error()
}

// ArrayOf returns v as an array: v itself if it is one, else [v].
func ArrayOf(v any) []any {
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}

// CheckIRI is rdf.CheckIRI, also rejecting a second '#' (a fragment may
// not contain one, RFC 3987).
func CheckIRI(iri string) string {
	if msg := rdf.CheckIRI(iri); msg != "" {
		return msg
	}
	if strings.Count(iri, "#") > 1 {
		return "IRI <" + iri + "> has more than one '#'"
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
