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
	// largeLimit bounds the reservations of large requests together
	// (limit less what is kept for the cheap ones, see cheapReserve).
	largeLimit int64

	mu       sync.Mutex
	used     int64
	large    int64 // reserved by large requests
	peak     int64
	refused  uint64 // reservations refused because the budget was full
	tooLarge uint64 // reservations larger than the whole budget
}

// reserve returns an empty reservation on b.
func (b *memBudget) reserve() *reservation { return &reservation{b: b} }

// take adds n bytes to the budget's use if they fit, and to the large
// requests' use for a large reservation.
func (b *memBudget) take(n int64, large bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit || large && b.large+n > b.largeLimit {
		b.refused++
		return false
	}
	b.used += n
	if large {
		b.large += n
	}
	b.peak = max(b.peak, b.used)
	return true
}

func (b *memBudget) give(n int64, large bool) {
	b.mu.Lock()
	b.used -= n
	if large {
		b.large -= n
	}
	b.mu.Unlock()
}

// cheapReserve is the part of a budget of limit bytes that large requests
// may not reserve, for a server of maxConcurrent general slots: 12 MiB a
// slot (a cheap request of 1,000 quads reserves about 10 MiB), at most a
// quarter of the budget.
func cheapReserve(limit int64, maxConcurrent int) int64 {
	return min(limit/4, int64(maxConcurrent)*12<<20)
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
	// large is true once the reservation is a large request's: it then
	// counts against memBudget.largeLimit too.
	large bool
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
	if r.large && n > r.b.largeLimit {
		r.b.mu.Lock()
		r.b.tooLarge++
		r.b.mu.Unlock()
		return &apiError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf(
			"this request needs about %s of memory, more than the large requests may reserve together (%s of the server's memory budget of %s; the rest is kept for small requests): send a smaller graph or fewer formats",
			mib(n), mib(r.b.largeLimit), mib(r.b.limit))}
	}
	if !r.b.take(n-r.n, r.large) {
		return &apiError{Status: http.StatusServiceUnavailable, RetryAfter: 2, Msg: fmt.Sprintf(
			"the server's memory budget (%s) is taken by the requests in progress; this one needs about %s: retry later",
			mib(r.b.limit), mib(n))}
	}
	r.n = n
	return nil
}

// markLarge makes r a large request's reservation: what it holds counts
// against the large requests' bound from now on (it may pass it for a
// moment; its next growth waits for room). Nothing in a worker process,
// whose reservations are the parent's.
func (r *reservation) markLarge() {
	if r.large || r.ask != nil {
		return
	}
	r.large = true
	r.b.mu.Lock()
	r.b.large += r.n
	r.b.mu.Unlock()
}

// release gives the whole reservation back.
func (r *reservation) release() {
	if r.n > 0 {
		r.b.give(r.n, r.large)
		r.n = 0
	}
}

// mib writes a byte count in MiB with one decimal.
func mib(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
