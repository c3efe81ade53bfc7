package testgraph

import (
	"testing"

	"github.com/isolda/isolda/token"
)

// O200k returns the embedded o200k_base tokenizer, failing the test when
// it cannot be loaded: the one helper the tests that count tokens share.
func O200k(t testing.TB) token.Tokenizer {
	t.Helper()
	tok, err := token.NewRegistry(token.Options{}).Get(token.O200KBase)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
