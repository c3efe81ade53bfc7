package jsonld

import (
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
)

// env gives package ldproc's algorithms what they need from the conversion
// of one input: positioned warnings, the document loader and the limits.
type env struct{ st *state }

// Warn implements ldproc.Env.
func (e env) Warn(msg, action string, path []any) {
	e.st.warnAt(msg, action, func() loc { return e.st.locate(path) })
}

// Suspect implements ldproc.Env.
func (e env) Suspect(s string, path []any) { e.st.suspect(s, path) }

// TooLong implements ldproc.Env.
func (e env) TooLong(s string) bool { return e.st.tooLong(s) }

// LoadDocument implements ldproc.Env.
func (e env) LoadDocument(u string) (*ldproc.RemoteDocument, error) {
	return e.st.loader.LoadDocument(u)
}

// LoadError implements ldproc.Env: a loader's errors become *Error.
func (e env) LoadError(err error) error { return e.st.ldError(err) }

// ErrorCode implements ldproc.Env.
func (e env) ErrorCode(err error) string {
	if je, ok := err.(*Error); ok {
		return je.Code
	}
	return ""
}

// config returns the options of package ldproc's algorithms.
func (st *state) config() ldproc.Config {
	return ldproc.Config{ProcessingMode: st.opts.ProcessingMode, DropInvalid: st.opts.DropInvalid, Shared: st.shared}
}

// fromLD converts an *ldproc.Error to *Error (with no position yet); other
// errors are returned as they are.
func fromLD(err error) error {
	if le, ok := err.(*ldproc.Error); ok {
		return &Error{Code: le.Code, Msg: le.Msg, Err: le.Err}
	}
	return err
}
