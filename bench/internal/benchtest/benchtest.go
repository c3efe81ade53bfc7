// Package benchtest holds what the tests of package bench and its
// subpackages share.
package benchtest

import (
	"testing"

	"github.com/isolda/isolda/token"
)

// O200K returns the o200k_base tokenizer, failing t if it cannot be built.
func O200K(t testing.TB) token.Tokenizer {
	t.Helper()
	tok, err := token.NewRegistry(token.Options{}).Get(token.O200KBase)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
