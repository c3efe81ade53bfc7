package server

// Admission by cost and by client. A request takes one of two kinds of
// slot, and holds one at a time:
//
//   - a general slot (Config.MaxConcurrent) while it is cheap: its body
//     is under Isolation.MinBytes and the work has not found it large;
//   - a large slot (Config.MaxLarge) once it is large: its body is sent
//     to a worker process, or its graph's data is over LargeBytes, or its
//     parse passed LargeQuads. Taking a large slot gives the general one
//     back, so large requests, however many are sent, never hold the
//     slots of the cheap ones; a large request that finds the large slots
//     taken gets 429 with Retry-After at once, before any worker process
//     is started for it.
//
// A client (the IP address a request comes from) may hold at most
// Config.MaxPerClient general slots and MaxLargePerClient large slots: a
// few clients sending many requests at once get 429 for those beyond their
// share, and the others keep theirs. A client refused for its share or
// for want of a large slot is told when to come back (Retry-After); its
// requests before then are refused at once, before their bodies are read,
// and each doubles its wait (up to a minute), so that a client that sends
// expensive requests in a loop costs little more than its own refusals.

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// admission counts the slots in use, in all and by client.
type admission struct {
	maxGeneral, maxLarge   int
	perClient, perClientLg int

	mu      sync.Mutex
	general int // general slots in use
	large   int // large slots in use
	clients map[string]*clientUse
	// until is when each client refused with Retry-After may come back.
	until map[string]penalty
	now   func() time.Time
	// refusedGeneral, refusedLarge, refusedClient and refusedEarly count
	// the 429s: no general slot free, no large slot free, a client over
	// its share, a client back before its Retry-After.
	refusedGeneral, refusedLarge, refusedClient, refusedEarly uint64
	// refusedConn counts the early comebacks refused at the listener
	// (Listener), before HTTP; refusedEarly counts them too.
	refusedConn uint64
}

// clientUse is what one client holds.
type clientUse struct{ general, large int }

func newAdmission(cfg Config) *admission {
	return &admission{maxGeneral: cfg.MaxConcurrent, maxLarge: cfg.MaxLarge,
		perClient: cfg.MaxPerClient, perClientLg: cfg.MaxLargePerClient, clients: map[string]*clientUse{},
		until: map[string]penalty{}, now: time.Now}
}

// ticket is what one request holds; it is used by one goroutine at a time
// (the handler, then its worker goroutine).
type ticket struct {
	a       *admission
	client  string
	general bool
	large   bool
}

// clientOf returns the client key of a request: the IP address of its
// remote address (the port differs between a client's connections).
func clientOf(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		return remoteAddr
	}
	if ip := net.ParseIP(host); ip != nil {
		if ip.To4() == nil {
			// An IPv6 client is its /64: one host has a whole prefix.
			return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
		}
		return ip.String()
	}
	return host
}

func (a *admission) use(client string) *clientUse {
	u := a.clients[client]
	if u == nil {
		u = &clientUse{}
		a.clients[client] = u
	}
	return u
}

// forget drops a client that holds nothing (a.mu held).
func (a *admission) forget(client string, u *clientUse) {
	if u.general == 0 && u.large == 0 {
		delete(a.clients, client)
	}
}

// maxPenalized bounds the clients remembered with a Retry-After: when the
// table is full and none has expired, refusals are not remembered.
const maxPenalized = 1 << 16

// maxEarlyWait bounds the wait of a client that keeps coming back early.
const maxEarlyWait = time.Minute

// penalty is when a refused client may come back, and how many times it
// came back before that.
type penalty struct {
	until   time.Time
	strikes int
}

// penalize remembers that client may not come back before e's
// Retry-After (a.mu held).
func (a *admission) penalize(client string, e *apiError) {
	now := a.now()
	if len(a.until) >= maxPenalized {
		for c, p := range a.until {
			if !now.Before(p.until) {
				delete(a.until, c)
			}
		}
		if len(a.until) >= maxPenalized {
			return
		}
	}
	p := a.until[client]
	p.until = now.Add(time.Duration(e.RetryAfter) * time.Second)
	a.until[client] = p
}

// early returns the 429 of a client that comes back before the
// Retry-After it was given, or nil. Each early comeback doubles the wait
// from then on (2, 4, 8 s ... up to maxEarlyWait), so that a client that
// ignores Retry-After and loops sends its expensive requests ever more
// rarely; a client back in time starts afresh.
func (a *admission) early(client string) *apiError {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.until[client]
	if !ok {
		return nil
	}
	now := a.now()
	if !now.Before(p.until) {
		delete(a.until, client)
		return nil
	}
	a.refusedEarly++
	p.strikes++
	p.until = now.Add(min(maxEarlyWait, time.Second<<min(p.strikes, 6)))
	a.until[client] = p
	left := p.until.Sub(now)
	return tooMany(int((left+time.Second-1)/time.Second),
		"this client came back before the Retry-After of its last refusal (%d times): retry after %s", p.strikes, left.Round(time.Second))
}

// countConnRefusal counts an early comeback refused at the listener.
func (a *admission) countConnRefusal() {
	a.mu.Lock()
	a.refusedConn++
	a.mu.Unlock()
}

// connRefusals returns the count of countConnRefusal.
func (a *admission) connRefusals() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.refusedConn
}

// tooMany is the 429 of a refused admission.
func tooMany(retry int, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusTooManyRequests, RetryAfter: retry, Msg: fmt.Sprintf(format, args...)}
}

// admit gives a new request of client a general slot.
func (a *admission) admit(client string) (*ticket, *apiError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.use(client)
	switch {
	case u.general >= a.perClient:
		a.refusedClient++
		a.forget(client, u)
		e := tooMany(1, "too many concurrent requests from this client (at most %d at once): retry later", a.perClient)
		a.penalize(client, e)
		return nil, e
	case a.general >= a.maxGeneral:
		a.refusedGeneral++
		a.forget(client, u)
		return nil, tooMany(1, "too many concurrent requests")
	}
	u.general++
	a.general++
	return &ticket{a: a, client: client, general: true}, nil
}

// admitLarge gives a new request of client a large slot (a body sent to
// a worker process at once).
func (a *admission) admitLarge(client string) (*ticket, *apiError) {
	t := &ticket{a: a, client: client}
	if e := t.takeLarge(); e != nil {
		return nil, e
	}
	return t, nil
}

// checkLarge returns the 429 a large request of client would get now,
// or nil when a large slot is free for it (a hint: the slot is taken
// later, after the body is read).
func (a *admission) checkLarge(client string) *apiError {
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.use(client)
	defer a.forget(client, u)
	return a.largeRefusal(client, u)
}

// largeRefusal returns the 429 of a large request of a client that holds
// u, or nil; a refusal is counted and remembered (a.mu held).
func (a *admission) largeRefusal(client string, u *clientUse) *apiError {
	var e *apiError
	switch {
	case u.large >= a.perClientLg:
		a.refusedClient++
		e = tooMany(2, "too many large requests from this client (at most %d at once): retry later", a.perClientLg)
	case a.large >= a.maxLarge:
		a.refusedLarge++
		e = tooMany(2, "too many large requests in progress (at most %d at once): retry later", a.maxLarge)
	default:
		return nil
	}
	a.penalize(client, e)
	return e
}

// takeLarge moves t to a large slot, giving its general slot back; 429
// with Retry-After when no large slot is free or its client holds its
// share of them.
func (t *ticket) takeLarge() *apiError {
	if t.large {
		return nil
	}
	a := t.a
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.use(t.client)
	if e := a.largeRefusal(t.client, u); e != nil {
		a.forget(t.client, u)
		return e
	}
	u.large++
	a.large++
	t.large = true
	if t.general {
		u.general--
		a.general--
		t.general = false
	}
	return nil
}

// release gives back whatever t holds.
func (t *ticket) release() {
	a := t.a
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.use(t.client)
	if t.general {
		u.general--
		a.general--
		t.general = false
	}
	if t.large {
		u.large--
		a.large--
		t.large = false
	}
	a.forget(t.client, u)
}

// stats returns the slots in use, the clients holding any, and the
// refusals (those of clients over their share or back early together).
func (a *admission) stats() (general, large, clients int, refusedGeneral, refusedLarge, refusedClient uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.general, a.large, len(a.clients), a.refusedGeneral, a.refusedLarge, a.refusedClient + a.refusedEarly
}
