package token

import (
	"fmt"
	"sync"
	"testing"
)

// TestMemoExact checks that memoized counts equal unmemoized ones and the
// reference counts on the reference corpus: every text is counted by a
// fresh tokenizer (memo misses), again (memo hits, including pieces met in
// other texts), concurrently from several goroutines, and by the same
// encoding with the memo switched off.
func TestMemoExact(t *testing.T) {
	sums := corpusSums(t)
	for _, name := range []string{O200KBase, CL100KBase} {
		t.Run(name, func(t *testing.T) {
			tok, err := loadTiktoken(name, false)
			if err != nil {
				t.Fatal(err)
			}
			memo := tok.(*base)
			plain := &base{name: name, enc: &tiktoken{ranks: memo.enc.(*tiktoken).ranks, split: memo.enc.(*tiktoken).split}}
			refs := readRefs(t, name)
			texts := make([]string, len(refs))
			for i, r := range refs {
				texts[i] = corpusText(t, sums, r.File)
			}
			pass := 0
			for pass_ := range 2 {
				for i, r := range refs {
					got, want := memo.Count(texts[i]), plain.Count(texts[i])
					if got != want || got != r.Count {
						t.Errorf("pass %d %s: memoized count %d, unmemoized %d, reference %d", pass_, r.File, got, want, r.Count)
						continue
					}
					pass++
				}
			}
			var wg sync.WaitGroup
			errs := make(chan string, 4*len(refs))
			for g := range 4 {
				wg.Go(func() {
					for k := range refs {
						i := (k + g*len(refs)/4) % len(refs)
						if got := memo.Count(texts[i]); got != refs[i].Count {
							errs <- fmt.Sprintf("concurrent %s: count %d, want %d", refs[i].File, got, refs[i].Count)
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
			line := fmt.Sprintf("memo %-12s memoized == unmemoized == reference: %d/%d", name, pass, 2*len(refs))
			t.Log(line)
		})
	}
}

// TestMemoCollisions checks that pieces sharing a slot replace each other
// without mixing up their counts.
func TestMemoCollisions(t *testing.T) {
	tok, err := loadTiktoken(O200KBase, false)
	if err != nil {
		t.Fatal(err)
	}
	b := tok.(*base)
	// Far more distinct pieces than slots.
	words := make([]string, 0, 3*memoSlots)
	for i := range 3 * memoSlots {
		words = append(words, fmt.Sprintf(" w%dq%x", i, i*7919))
	}
	for range 2 {
		for _, w := range words {
			want := len(b.Encode(w)) // Encode does not use the memo
			if got := b.Count(w); got != want {
				t.Fatalf("%q: count %d, want %d", w, got, want)
			}
		}
	}
}
