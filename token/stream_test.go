package token

import (
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

// TestCountReaderCorpus: counting in parts, with blocks far smaller than
// the texts so that every cut point is used, gives the reference counts of
// every corpus text for every tokenizer.
func TestCountReaderCorpus(t *testing.T) {
	sums := corpusSums(t)
	for _, name := range refTokenizers {
		tok := getTok(t, name)
		if !tok.(*base).enc.(streamer).cutSafe() {
			t.Errorf("%s: not cut-safe, CountReader would read whole texts", name)
		}
		pass, total := 0, 0
		for _, r := range readRefs(t, name) {
			text := corpusText(t, sums, r.File)
			ok := true
			for _, block := range []int{1, 7, 64, 4096} {
				n, err := countReader(tok, iotest.HalfReader(strings.NewReader(text)), block)
				if err != nil || n != r.Count {
					t.Errorf("%s %s block %d: %d (%v), want %d", name, r.File, block, n, err, r.Count)
					ok = false
				}
			}
			total++
			if ok {
				pass++
			}
		}
		line := fmt.Sprintf("CountReader %-12s %d/%d corpus texts exact at block sizes 1, 7, 64, 4096", name, pass, total)
		t.Log(line)
	}
}

func TestCountReaderSpecialAndErrors(t *testing.T) {
	special := NewRegistry(Options{ModelsDir: testRegistryDir(t), Special: true})
	g, err := special.Get("gemma3")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("Hello world\nnext line\n", 100)
	n, err := countReader(g, strings.NewReader(text), 32)
	if err != nil || n != g.Count(text) || n != getTok(t, "gemma3").Count(text)+1 {
		t.Errorf("gemma3 Special: CountReader %d (%v), Count %d", n, err, g.Count(text))
	}
	if _, err := CountReader(g, iotest.ErrReader(fmt.Errorf("boom"))); err == nil {
		t.Error("read error not returned")
	}
	if n, err := CountReader(getTok(t, O200KBase), strings.NewReader("")); n != 0 || err != nil {
		t.Errorf("empty: %d %v", n, err)
	}
	// The tiny tokenizer prepends ▁ to each segment, so it must not be cut.
	tiny, err := ReadHF(strings.NewReader(tinyTokenizer), "tiny", false)
	if err != nil {
		t.Fatal(err)
	}
	if tiny.(*base).enc.(streamer).cutSafe() {
		t.Error("tiny tokenizer (Prepend) claims to be cut-safe")
	}
	text = strings.Repeat("ab\nab\n", 50)
	if n, _ := countReader(tiny, strings.NewReader(text), 4); n != tiny.Count(text) {
		t.Errorf("tiny: CountReader %d, Count %d", n, tiny.Count(text))
	}
}

func TestLastCut(t *testing.T) {
	for in, want := range map[string]int{"": 0, "\n": 0, "a\nb": 2, "a\nb\n1\nc\n ": 6, "\n\n": 0, "x\nZ": 2, "\n\xc3\xa9": 0} {
		if got := lastCut([]byte(in)); got != want {
			t.Errorf("lastCut(%q) = %d, want %d", in, got, want)
		}
	}
}
