// Package isoldatest holds what the tests of the packages around the
// notation (the budget cutter, the benchmark, the MCP server) need of it:
// the document isolda.Encode writes, as the oracle their outputs are
// compared with. Tests only; the notation's own tests cannot import it.
package isoldatest

import (
	"strings"
	"testing"

	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
)

// Encode returns d in the ISOLDA notation with opts, as isolda.Encode
// writes it, failing the test when it cannot be encoded.
func Encode(t testing.TB, d *rdf.Dataset, opts isolda.Options) string {
	t.Helper()
	var b strings.Builder
	if err := isolda.Encode(&b, d, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
