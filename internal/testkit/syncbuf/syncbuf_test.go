package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestConcurrent writes from several goroutines while reading: every
// write arrives whole (run with -race to check the locking).
func TestConcurrent(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Write([]byte("ab\n"))
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("ab\n", 800) {
		t.Errorf("%d bytes, want 2400 of whole lines", len(got))
	}
	c := b.Bytes()
	c[0] = 'x'
	if b.String()[0] != 'a' {
		t.Error("Bytes returned the buffer itself, not a copy")
	}
}
