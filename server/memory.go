package server

import (
	"fmt"
	"net/http"
	"sync"
)

// memBudget is the memory the requests in progress may hold together, in
// bytes, as reserved by their estimates (Config.MemoryBudget).
type memBudget struct {
	limit int64

	mu       sync.Mutex
	used     int64
	peak     int64
	refused  uint64 // reservations refused because the budget was full
	tooLarge uint64 // reservations larger than the whole budget
}

// reserve returns an empty reservation on b.
func (b *memBudget) reserve() *reservation { return &reservation{b: b} }

// take adds n bytes to the budget's use if they fit.
func (b *memBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		b.refused++
		return false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return true
}

func (b *memBudget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// stats returns the bytes reserved now, the peak, and the refusals.
func (b *memBudget) stats() (used, peak int64, refused, tooLarge uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.peak, b.refused, b.tooLarge
}

// reservation is the memory one request holds on a memBudget. It is used
// by one goroutine at a time (the handler, then its worker).
type reservation struct {
	b *memBudget
	n int64
	// ask, in a worker process, makes the reservation on the parent's
	// budget instead of b.
	ask func(n int64) *apiError
}

// growTo raises the reservation to n bytes (nothing when it holds as
// much already). A request that alone needs more than the whole budget
// gets 413; one that finds the budget full gets 503 with Retry-After.
func (r *reservation) growTo(n int64) *apiError {
	if n <= r.n {
		return nil
	}
	if r.ask != nil {
		if e := r.ask(n); e != nil {
			return e
		}
		r.n = n
		return nil
	}
	if n > r.b.limit {
		r.b.mu.Lock()
		r.b.tooLarge++
		r.b.mu.Unlock()
		return &apiError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf(
			"this request needs about %s of memory, more than the server's memory budget of %s: send a smaller graph or fewer formats",
			mib(n), mib(r.b.limit))}
	}
	if !r.b.take(n - r.n) {
		return &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 2, Msg: fmt.Sprintf(
			"the server's memory budget (%s) is taken by the requests in progress; this one needs about %s: retry later",
			mib(r.b.limit), mib(n))}
	}
	r.n = n
	return nil
}

// release gives the whole reservation back.
func (r *reservation) release() {
	if r.n > 0 {
		r.b.give(r.n)
		r.n = 0
	}
}

// mib writes a byte count in MiB with one decimal.
func mib(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
