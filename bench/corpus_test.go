package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// corpusBase is the base IRI the corpus is read with, so that the HTML
// pages' relative IRIs, and with them the token counts, do not depend on
// the folder (testdata/corpus/SOURCES).
const corpusBase = "https://corpus.isolda.example/"

// corpusGraph is one graph of the corpus with its token counts per format
// and tokenizer ("" for a format that cannot write it).
type corpusGraph struct {
	name    string
	triples int
	tokens  map[string]map[string]int // tokenizer -> format -> tokens
}

// losslessRDF returns the registry's lossless RDF formats, ISOLDA first.
func losslessRDF() []string {
	var out []string
	for _, f := range formats.All() {
		if f.Lossless && f.Decode != nil {
			out = append(out, f.Name)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		ia, ib := strings.HasPrefix(a, "isolda"), strings.HasPrefix(b, "isolda")
		if ia != ib {
			if ia {
				return -1
			}
			return 1
		}
		return 0
	})
	return out
}

// TestCorpusTable encodes every graph of testdata/corpus in every lossless
// RDF format of the registry, counts o200k_base and Qwen3 tokens, prints
// the per-graph table of BENCHMARKS.md (go test ./bench -run
// TestCorpusTable -v), and checks ISOLDA 0.4's targets: a lossless round
// trip on every graph; fewer tokens than every other lossless format on
// every graph of 100 triples or more, the glossary included; on smaller
// graphs, a body smaller than Turtle (TriG with named graphs); a mean
// saving of 20% or more against Turtle and 30% or more against b-ttl-ids.
func TestCorpusTable(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus table: not in -short")
	}
	models := shared.MustPath(t, "tokenizers", "models")
	reg := token.NewRegistry(token.Options{ModelsDir: models})
	var toks []token.Tokenizer
	for _, name := range []string{token.O200KBase, "qwen3"} {
		tok, err := reg.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
	}
	dir := filepath.Join("..", "testdata", "corpus")
	files, err := filepath.Glob(filepath.Join(dir, "*.*"))
	if err != nil || len(files) < 30 {
		t.Fatalf("corpus: %d files (%v), want 30 or more", len(files), err)
	}
	names := losslessRDF()
	var graphs []corpusGraph
	for _, path := range files {
		d, err := rdfio.ReadFile(path, os.Stdin, rdfio.Options{ReadOptions: rdf.ReadOptions{Base: corpusBase}})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		g := corpusGraph{name: filepath.Base(path), triples: d.Len(), tokens: map[string]map[string]int{}}
		in := formats.NewInput(d)
		for _, tok := range toks {
			g.tokens[tok.Name()] = map[string]int{}
		}
		for _, f := range names {
			text, err := formats.EncodeString(f, in)
			if err != nil {
				continue // Turtle, N-Triples and RDF/XML refuse named graphs
			}
			for _, tok := range toks {
				g.tokens[tok.Name()][f] = tok.Count(text)
			}
			if f == "isolda" {
				if !strings.HasPrefix(text, "# ISOLDA 0.4:") {
					t.Fatalf("%s: the isolda format does not write 0.4", g.name)
				}
				back, err := isolda.Decode(strings.NewReader(text))
				if err != nil {
					t.Fatalf("%s: 0.4 does not decode: %v", g.name, err)
				}
				if iso, err := canon.Isomorphic(d, back); err != nil || !iso {
					t.Errorf("%s: 0.4 round trip not isomorphic (%v)", g.name, err)
				}
				parts, err := isolda.EncodeParts(d, isolda.Options{Version: isolda.V04})
				if err != nil {
					t.Fatal(err)
				}
				for _, tok := range toks {
					g.tokens[tok.Name()]["isolda-0.4 body"] = tok.Count(parts.Body)
				}
			}
		}
		graphs = append(graphs, g)
	}
	for _, tok := range toks {
		tn := tok.Name()
		writeCorpusTable(t, tn, names, graphs)
		var sumTurtle, sumIDs float64
		for _, g := range graphs {
			tk := g.tokens[tn]
			v04 := tk["isolda"]
			ref := tk["turtle"]
			if ref == 0 {
				ref = tk["trig"]
			}
			sumTurtle += 1 - float64(v04)/float64(ref)
			sumIDs += 1 - float64(v04)/float64(tk["b-ttl-ids"])
			if g.triples < 100 {
				if body := tk["isolda-0.4 body"]; body >= ref {
					t.Errorf("%s %s (%d triples): 0.4 body %d tokens, Turtle/TriG %d", tn, g.name, g.triples, body, ref)
				}
				continue
			}
			for _, f := range names {
				if n, ok := tk[f]; ok && !strings.HasPrefix(f, "isolda") && n <= v04 {
					t.Errorf("%s %s: 0.4 %d tokens, %s %d", tn, g.name, v04, f, n)
				}
			}
		}
		mt, mi := 100*sumTurtle/float64(len(graphs)), 100*sumIDs/float64(len(graphs))
		line := fmt.Sprintf("%s: 0.4 mean saving %.1f%% against Turtle (TriG with named graphs), %.1f%% against b-ttl-ids, over %d graphs", tn, mt, mi, len(graphs))
		t.Log(line)
		if mt < 20 || mi < 30 {
			t.Errorf("%s", line)
		}
	}
}

// writeCorpusTable prints the markdown table of one tokenizer.
func writeCorpusTable(t *testing.T, tn string, names []string, graphs []corpusGraph) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s tokens (isolda is 0.4; 0.4 body: its body without the glossary, with its @isolda line)\n\n| graph | triples | 0.4 body |", tn)
	for _, f := range names {
		fmt.Fprintf(&b, " %s |", f)
	}
	b.WriteString(" smallest |\n|---|---:|---:|")
	for range names {
		b.WriteString("---:|")
	}
	b.WriteString("---|\n")
	for _, g := range graphs {
		tk := g.tokens[tn]
		fmt.Fprintf(&b, "| %s | %d | %d |", g.name, g.triples, tk["isolda-0.4 body"])
		best, bestN := "", 0
		for _, f := range names {
			n, ok := tk[f]
			if !ok {
				b.WriteString(" - |")
				continue
			}
			fmt.Fprintf(&b, " %d |", n)
			if best == "" || n < bestN {
				best, bestN = f, n
			}
		}
		fmt.Fprintf(&b, " %s |\n", best)
	}
	t.Log(b.String())
	fmt.Print(b.String())
}
