package ldproc

import (
	"strconv"
	"strings"
)

// RemoteDocument is a document a DocumentLoader returns: its URL (after
// redirects) and its decoded JSON value.
type RemoteDocument struct {
	// DocumentURL is the document's URL after redirects.
	DocumentURL string
	// Document is the decoded JSON value (map[string]any for a context).
	Document any
	// ContextURL is the URL of a context given in an HTTP Link header.
	ContextURL string
}

// DocumentLoader loads the remote context documents an input names. An
// error that is not an *Error is reported as LoadingDocumentFailed.
type DocumentLoader interface {
	LoadDocument(u string) (*RemoteDocument, error)
}

// JSON-LD 1.1 error codes that loaders return.
const (
	// LoadingDocumentFailed: a document could not be loaded.
	LoadingDocumentFailed = "loading document failed"
	// ContextOverflow: too many contexts, or contexts nested too deeply.
	ContextOverflow = "context overflow"
)

// LoadFailed returns the error of a loader that could not load a document,
// msg saying why and err, if any, the cause (for errors.Is).
func LoadFailed(msg string, err error) *Error {
	return &Error{Code: LoadingDocumentFailed, Msg: msg, Err: err}
}

// IdentifierIssuer issues fresh blank node identifiers (the JSON-LD 1.1
// API's Generate Blank Node Identifier, §7.4): prefix followed by a
// counter, the same identifier again for an input identifier seen before.
type IdentifierIssuer struct {
	prefix   string
	counter  int
	existing map[string]string
}

// NewIdentifierIssuer returns an issuer of prefix0, prefix1, ….
func NewIdentifierIssuer(prefix string) *IdentifierIssuer {
	return &IdentifierIssuer{prefix: prefix, existing: map[string]string{}}
}

// ID returns the identifier issued for old, issuing the next one the first
// time; an empty old always gets a new identifier.
func (ii *IdentifierIssuer) ID(old string) string {
	if old != "" {
		if id, ok := ii.existing[old]; ok {
			return id
		}
	}
	id := ii.prefix + strconv.Itoa(ii.counter)
	ii.counter++
	if old != "" {
		ii.existing[old] = id
	}
	return id
}

// IsKeyword reports whether s is a JSON-LD 1.1 keyword.
func IsKeyword(s string) bool { return isKeyword(s) }

// CanonicalDouble returns the canonical lexical form of an xsd:double as
// JSON-LD's Object to RDF Conversion writes it (§8.6): one digit before the
// point, the fraction without trailing zeros but at least one digit, and
// the exponent without a plus sign or leading zeros ("1.1E1", "-1.5E-7",
// "0.0E0"), from the 16 significant digits of %.15E.
func CanonicalDouble(v float64) string {
	s := strconv.FormatFloat(v, 'E', 15, 64)
	mant, exp, ok := strings.Cut(s, "E")
	if !ok { // NaN, ±Inf: JSON has none, kept as Go writes them
		return s
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		mant = strings.TrimRight(mant, "0")
		if strings.HasSuffix(mant, ".") {
			mant += "0"
		}
	}
	n, err := strconv.Atoi(exp)
	if err != nil {
		return s
	}
	return mant + "E" + strconv.Itoa(n)
}
