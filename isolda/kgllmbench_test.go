package isolda

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/turtle"
	"github.com/isolda/isolda/token"
)

// kgllmTexts reads the 500 rdf_turtle2 texts of KG-LLM-Bench's regenerated
// instances (pseudonymized variant) and parses each as Turtle.
func kgllmTexts(t *testing.T) (texts []string, graphs []*rdf.Dataset) {
	t.Helper()
	path := shared.MustPath(t, "data", "kgllmbench", "instances", "textualized", "rdf_turtle2.pseudo.jsonl.gz")
	zr := shared.OpenGzip(t, path)
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			Task string `json:"task"`
			ID   int    `json:"id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		d := rdf.NewDataset()
		if err := turtle.Parse(strings.NewReader(rec.Text), turtle.Turtle, d, rdf.ReadOptions{File: fmt.Sprintf("%s#%d", rec.Task, rec.ID)}); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, rec.Text)
		graphs = append(graphs, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return texts, graphs
}

// TestKGLLMBenchTokens encodes KG-LLM-Bench's 500 pseudonymized instances
// from rdf_turtle2's RDF in every version, checks that every round trip is
// isomorphic and that 0.4's mean is at most 5,400 tokens with o200k_base
// and Qwen3, and prints the means beside rdf_turtle2's own text (go test
// -run TestKGLLMBenchTokens -v ./isolda/).
func TestKGLLMBenchTokens(t *testing.T) {
	if testing.Short() {
		t.Skip("KG-LLM-Bench tokens: not in -short")
	}
	reg := token.NewRegistry(token.Options{ModelsDir: shared.MustPath(t, "tokenizers", "models")})
	var toks []token.Tokenizer
	for _, name := range []string{"o200k_base", "qwen3"} {
		tok, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
	}
	texts, graphs := kgllmTexts(t)
	if len(graphs) != 500 {
		t.Fatalf("%d instances, want 500", len(graphs))
	}
	sum := map[string]map[string]int{} // tokenizer -> version -> tokens
	for _, tok := range toks {
		sum[tok.Name()] = map[string]int{}
		for _, s := range texts {
			sum[tok.Name()]["rdf_turtle2"] += tok.Count(s)
		}
	}
	vs := append([]string{}, versions...)
	for _, v := range vs {
		lossless := 0
		for i, d := range graphs {
			text := encodeString(t, d, Options{Version: v})
			for _, tok := range toks {
				sum[tok.Name()][v] += tok.Count(text)
			}
			back, err := Decode(strings.NewReader(text))
			if err != nil {
				t.Fatalf("%s instance %d: %v", v, i, err)
			}
			if iso, err := canon.Isomorphic(d, back); err == nil && iso {
				lossless++
			}
		}
		if lossless != len(graphs) {
			t.Errorf("%s: %d/%d round trips isomorphic", v, lossless, len(graphs))
		}
	}
	for _, tok := range toks {
		mean := func(k string) float64 { return float64(sum[tok.Name()][k]) / float64(len(graphs)) }
		line := fmt.Sprintf("KG-LLM-Bench pseudonymized, mean %s text tokens:", tok.Name())
		for _, k := range append([]string{"rdf_turtle2"}, vs...) {
			line += fmt.Sprintf(" %s %.0f;", k, mean(k))
		}
		t.Log(line)
		if m := mean(V04); m > 5400 {
			t.Errorf("%s: 0.4 mean %.0f tokens, want 5,400 or fewer", tok.Name(), m)
		}
	}
}
