package bench

import (
	"testing"

	"github.com/isolda/isolda/token"
)

// The fixtures in ../formats/graphrag/testdata were produced by the GraphRAG
// article's reference program (benchmark_graph_formats.py, CPython 3.11.7;
// see gen_fixtures.py there): they are the oracle for the synthetic graph.
const fixtures = "../formats/graphrag/testdata"

// o200k returns the o200k_base tokenizer.
func o200k(t testing.TB) token.Tokenizer {
	t.Helper()
	tok, err := token.NewRegistry(token.Options{}).Get(token.O200KBase)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
