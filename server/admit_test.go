package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdLarge takes a large slot for client, as a large request in progress
// would; release it with its release method.
func holdLarge(t *testing.T, s *server, client string) *ticket {
	t.Helper()
	tk, e := s.adm.admitLarge(client)
	if e != nil {
		t.Fatalf("taking a large slot for %s: %s", client, e.Msg)
	}
	return tk
}

// slotsHeld returns the general and large slots held now.
func slotsHeld(s *server) (general, large int) {
	general, large, _, _, _, _ = s.adm.stats()
	return general, large
}

// callFrom sends body to h as a POST from the client at remote (ip:port);
// contentLength -1 sends it without a length (chunked).
func callFrom(h http.Handler, remote, path, body string, contentLength int64) *httptest.ResponseRecorder {
	var r io.Reader = strings.NewReader(body)
	if contentLength < 0 {
		r = io.MultiReader(r) // hides the length from httptest.NewRequest
	}
	req := httptest.NewRequest("POST", path, r)
	req.RemoteAddr = remote
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// fakeWork is a workFunc whose requests say what they cost: a body
// "expensive" takes a large slot, as a request found large does, and
// "hold" or "expensive" then waits until release is closed; any other
// body is answered at once.
func fakeWork(release <-chan struct{}) workFunc {
	return func(req *request) (any, *apiError) {
		body := string(req.body)
		if body == "expensive" {
			if e := req.takeLarge(); e != nil {
				return nil, e
			}
		}
		if body == "expensive" || body == "hold" {
			select {
			case <-release:
			case <-req.ctx.Done():
				return nil, &apiError{Status: http.StatusServiceUnavailable, Msg: "time out"}
			}
		}
		return map[string]string{"ok": body}, nil
	}
}

// waitSlots waits until s holds general and large slots (failing after
// 10 s).
func waitSlots(t *testing.T, s *server, general, large int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		g, l := slotsHeld(s)
		if g == general && l == large {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("slots held: %d general, %d large; want %d and %d", g, l, general, large)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestExpensiveClientsLeaveCheapSlots checks admission by cost: ten
// clients whose requests are expensive (found large after admission, then
// working a long time) hold at most the large slots, and refused ones get
// 429 with Retry-After; the cheap requests of 20 other clients are all
// answered meanwhile. Before, a request found large kept its general slot
// beside the large one: four expensive requests held every slot, and
// every cheap request got 429.
func TestExpensiveClientsLeaveCheapSlots(t *testing.T) {
	s := New(Config{MaxConcurrent: 4, MaxLarge: 4, MaxLargePerClient: 1}).(*server)
	release := make(chan struct{})
	h := s.work("fake", fakeWork(release))
	var wg sync.WaitGroup
	codes := make([]*httptest.ResponseRecorder, 10)
	for i := range codes {
		wg.Go(func() { codes[i] = callFrom(h, fmt.Sprintf("198.51.100.%d:4000", i+1), "/fake", "expensive", 9) })
	}
	// Four of them hold the four large slots; the six others are refused.
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, _, _, _, refusedLarge, _ := s.adm.stats()
		_, l := slotsHeld(s)
		if l == 4 && refusedLarge == 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("large slots held %d, large refusals %d; want 4 and 6", l, refusedLarge)
		}
		time.Sleep(time.Millisecond)
	}
	for i := range 20 {
		rec := callFrom(h, fmt.Sprintf("203.0.113.%d:5000", i+1), "/fake", "cheap", 5)
		if rec.Code != http.StatusOK {
			t.Errorf("cheap request %d beside the expensive ones: %d %s", i, rec.Code, rec.Body)
		}
	}
	close(release)
	wg.Wait()
	ok, refused := 0, 0
	for _, rec := range codes {
		switch {
		case rec.Code == http.StatusOK:
			ok++
		case rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") != "" &&
			strings.Contains(rec.Body.String(), "large requests"):
			refused++
		default:
			t.Errorf("expensive request: %d %s", rec.Code, rec.Body)
		}
	}
	if ok != 4 || refused != 6 {
		t.Errorf("expensive requests: %d answered, %d refused; want 4 and 6", ok, refused)
	}
	waitSlots(t, s, 0, 0)
}

// TestClientShare checks a client cannot hold more than its share of the
// general slots (MaxPerClient, default half of MaxConcurrent): its next
// request gets 429 with Retry-After, while other clients are answered;
// and, with more large slots than one, a client holds at most its share of
// those. Before, one client could take every slot.
func TestClientShare(t *testing.T) {
	s := New(Config{MaxConcurrent: 8, MaxLarge: 4}).(*server)
	if s.cfg.MaxPerClient != 4 || s.cfg.MaxLargePerClient != 2 {
		t.Fatalf("default shares: %d general, %d large; want 4 and 2", s.cfg.MaxPerClient, s.cfg.MaxLargePerClient)
	}
	release := make(chan struct{})
	h := s.work("fake", fakeWork(release))
	var wg sync.WaitGroup
	for i := range 4 {
		// One client, several connections (ports).
		wg.Go(func() { callFrom(h, fmt.Sprintf("198.51.100.7:%d", 4000+i), "/fake", "hold", 4) })
	}
	waitSlots(t, s, 4, 0)
	rec := callFrom(h, "198.51.100.7:4999", "/fake", "cheap", 5)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "this client") {
		t.Errorf("the client's fifth request: %d %s", rec.Code, rec.Body)
	}
	for i := range 3 {
		if rec := callFrom(h, fmt.Sprintf("203.0.113.%d:5000", i+1), "/fake", "cheap", 5); rec.Code != http.StatusOK {
			t.Errorf("another client's request: %d %s", rec.Code, rec.Body)
		}
	}
	// Large slots: two for the client, the third refused, another
	// client's taken.
	for i := range 2 {
		wg.Go(func() { callFrom(h, fmt.Sprintf("198.51.100.8:%d", 4000+i), "/fake", "expensive", 9) })
	}
	waitSlots(t, s, 4, 2)
	rec = callFrom(h, "198.51.100.8:4999", "/fake", "expensive", 9)
	if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "large requests from this client") {
		t.Errorf("the client's third large request: %d %s", rec.Code, rec.Body)
	}
	wg.Go(func() { callFrom(h, "203.0.113.50:5000", "/fake", "expensive", 9) })
	waitSlots(t, s, 4, 3)
	close(release)
	wg.Wait()
	waitSlots(t, s, 0, 0)
	if _, _, clients, _, _, _ := s.adm.stats(); clients != 0 {
		t.Errorf("%d clients still counted", clients)
	}
}

// TestClientOf checks the client key: the IP address, an IPv6 client's
// /64.
func TestClientOf(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1:1234":            "192.0.2.1",
		"192.0.2.1:999":             "192.0.2.1",
		"[2001:db8:1:2:3:4:5:6]:80": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:81": "2001:db8:1:2::/64",
		"[::ffff:192.0.2.1]:80":     "192.0.2.1",
		"pipe":                      "pipe",
		"[fe80::1%eth0]:80":         "fe80::1%eth0",
		"127.0.0.1:1":               "127.0.0.1",
		"[2001:db8:1:3:3:4:5:6]:80": "2001:db8:1:3::/64",
	} {
		if got := clientOf(in); got != want {
			t.Errorf("clientOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoundLargeByQuads checks a graph of few bytes and many quads (a
// Turtle list: 20 KB, 20,001 quads) is large once its parse passes
// LargeQuads: with the large slots taken it gets 429 instead of being
// worked on in a general slot. Before, only its bytes counted: it was
// cheap.
func TestFoundLargeByQuads(t *testing.T) {
	var list strings.Builder
	list.WriteString("@prefix ex: <http://example.org/> .\nex:a ex:p (")
	for range 10_000 {
		list.WriteString(" 1")
	}
	list.WriteString(" ) .\n")
	body := mustJSON(SerializeRequest{Graph: &Graph{Data: list.String(), Format: "ttl"}, Format: "ntriples"})
	s := New(Config{}).(*server)
	other := holdLarge(t, s, "203.0.113.9")
	code, hdr, b := call(t, s, "POST", "/v1/serialize", body)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !strings.Contains(string(b), "large requests") {
		t.Errorf("list of 20,001 quads with the large slot taken: %d %.300s", code, b)
	}
	other.release()
	forgive(s)
	if code, _, b := call(t, s, "POST", "/v1/serialize", body); code != http.StatusOK {
		t.Errorf("list of 20,001 quads with the large slot free: %d %.300s", code, b)
	}
	waitSlots(t, s, 0, 0)
}

// TestLargeMemoryLeavesCheap checks the large requests together reserve
// at most the budget less cheapReserve: a large reservation beyond gets
// 503 while a cheap one of the same size fits.
func TestLargeMemoryLeavesCheap(t *testing.T) {
	s := New(Config{MaxConcurrent: 2, MemoryBudget: 64 << 20}).(*server)
	if want := int64(48 << 20); s.mem.largeLimit != want {
		t.Fatalf("large limit %d, want %d", s.mem.largeLimit, want)
	}
	big := s.mem.reserve()
	if e := big.growTo(40 << 20); e != nil {
		t.Fatal(e.Msg)
	}
	big.markLarge()
	second := s.mem.reserve()
	second.markLarge()
	if e := second.growTo(10 << 20); e == nil || e.Status != http.StatusServiceUnavailable {
		t.Errorf("a second large reservation past the large limit: %v", e)
	}
	if e := second.growTo(49 << 20); e == nil || e.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("a large reservation larger than the large limit: %v", e)
	}
	cheap := s.mem.reserve()
	if e := cheap.growTo(20 << 20); e != nil {
		t.Errorf("a cheap reservation beside the large ones: %s", e.Msg)
	}
	for _, r := range []*reservation{big, second, cheap} {
		r.release()
	}
	if used, _, _, _ := s.mem.stats(); used != 0 || s.mem.large != 0 {
		t.Errorf("after release: %d reserved, %d large", used, s.mem.large)
	}
}

// TestCountCost checks the reservation for token counting follows the
// longest run of one class of bytes, and that a text whose counting needs
// more than the budget gets 413 before it is counted (before, counting a
// 300 KB literal of one letter, about 60 MB of work memory, was not
// reserved at all: 200 with a 48 MiB budget).
func TestCountCost(t *testing.T) {
	for _, c := range []struct {
		text    string
		longest int64
	}{
		{"", 0}, {"a", 1}, {"ab cd", 2}, {"a    b", 4}, {strings.Repeat("A", 1000) + " x", 1000},
		{"x\n" + strings.Repeat(" ", 300) + "y", 301},
	} {
		if got, want := countCost(c.text), memCountBase+memCountPerByte*(c.longest+1); got != want {
			t.Errorf("countCost(%.20q): %d, want %d", c.text, got, want)
		}
	}
	lit := strings.Repeat("A", 300_000)
	body := mustJSON(SerializeRequest{Graph: &Graph{Data: `<http://a> <http://b> "` + lit + `" .`, Format: "nt"}, Format: "ntriples"})
	s := New(Config{MemoryBudget: 48 << 20}).(*server)
	code, _, b := call(t, s, "POST", "/v1/serialize", body)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "memory") {
		t.Errorf("a 300 KB run of one letter with a 48 MiB budget: %d %.300s", code, b)
	}
	if code, _, b := call(t, s, "POST", "/v1/serialize", mustJSON(SerializeRequest{Graph: &Graph{Data: syntheticNT(100)}})); code != http.StatusOK {
		t.Errorf("a small graph: %d %.300s", code, b)
	}
	waitSlots(t, s, 0, 0)
}

// forgive forgets the Retry-After given to the clients of s, as if it had
// passed.
func forgive(s *server) {
	s.adm.mu.Lock()
	clear(s.adm.until)
	s.adm.mu.Unlock()
}

// TestEarlyComebacks checks a client refused with Retry-After that comes
// back early is refused, its wait doubling with each early comeback up to
// a minute, and that one back in time starts afresh.
func TestEarlyComebacks(t *testing.T) {
	a := newAdmission(Config{MaxConcurrent: 2, MaxLarge: 1, MaxPerClient: 1, MaxLargePerClient: 1}.WithDefaults())
	now := time.Unix(1000, 0)
	a.now = func() time.Time { return now }
	other, e := a.admitLarge("192.0.2.9")
	if e != nil {
		t.Fatal(e.Msg)
	}
	if _, e := a.admitLarge("192.0.2.1"); e == nil || e.RetryAfter != 2 {
		t.Fatalf("large request with the large slot taken: %v", e)
	}
	var waits []int
	for range 8 {
		now = now.Add(100 * time.Millisecond)
		e := a.early("192.0.2.1")
		if e == nil || e.Status != http.StatusTooManyRequests {
			t.Fatalf("early comeback: %v", e)
		}
		waits = append(waits, e.RetryAfter)
	}
	if want := []int{2, 4, 8, 16, 32, 60, 60, 60}; fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Errorf("Retry-After of the early comebacks: %v, want %v", waits, want)
	}
	if e := a.early("192.0.2.2"); e != nil {
		t.Errorf("another client: %s", e.Msg)
	}
	now = now.Add(time.Minute)
	if e := a.early("192.0.2.1"); e != nil {
		t.Errorf("back in time: %s", e.Msg)
	}
	other.release()
	tk, e := a.admitLarge("192.0.2.1")
	if e != nil {
		t.Fatalf("large slot free: %s", e.Msg)
	}
	tk.release()
	if len(a.until) != 0 || len(a.clients) != 0 {
		t.Errorf("remembered: %d penalties, %d clients", len(a.until), len(a.clients))
	}
}
