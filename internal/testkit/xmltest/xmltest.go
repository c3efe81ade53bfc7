// Package xmltest reads the XML that tests check (SVG charts, XHTML
// report pages) strictly, failing the test when it is not well formed.
// Tests only.
package xmltest

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// Tokens parses s as strict XML that may use only the predefined entities
// and character references, and returns its tokens in document order
// (copies, valid after the call). A document that is not well formed fails
// the test.
func Tokens(t testing.TB, s string) []xml.Token {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	dec.Entity = map[string]string{}
	var out []xml.Token
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		out = append(out, xml.CopyToken(tok))
	}
}
