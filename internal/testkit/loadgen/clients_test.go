package loadgen

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// addrServer is a loopback server that records the IP addresses its
// requests come from.
func addrServer(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		mu.Lock()
		seen[host] = true
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for h := range seen {
			out = append(out, h)
		}
		slices.Sort(out)
		return out
	}
}

// TestClientsFromAddresses checks a run with Clients sends from that many
// loopback addresses of group 1, and a hostile mix with Clients from
// those of group 2.
func TestClientsFromAddresses(t *testing.T) {
	srv, seen := addrServer(t)
	_, err := Run(context.Background(), Config{URL: srv.URL, Rate: 200, Duration: 200 * time.Millisecond, Clients: 5, MaxInFlight: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"127.1.0.1", "127.1.0.2", "127.1.0.3", "127.1.0.4", "127.1.0.5"}
	if got := seen(); !slices.Equal(got, want) {
		t.Errorf("load from %v, want %v", got, want)
	}
	srv2, seen2 := addrServer(t)
	mix := []Attack{postAttack("x", "/", "application/json", []byte("{}"), nil)}
	res, err := RunHostile(context.Background(), HostileConfig{Base: srv2.URL, Clients: 3, Duration: 100 * time.Millisecond, Mix: mix,
		Pause: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"127.2.0.1", "127.2.0.2", "127.2.0.3"}
	if got := seen2(); !slices.Equal(got, want) {
		t.Errorf("hostile clients from %v, want %v", got, want)
	}
	if res.Attacks[0].Sent < 3 || res.Attacks[0].Handled != res.Attacks[0].Sent || res.Unhandled() != 0 {
		t.Errorf("hostile result: %+v", res.Attacks[0])
	}
	if _, err := ClientsFrom("http://192.0.2.1:80", 1, 2, 1, time.Second); err == nil {
		t.Error("clients from many addresses to a non-loopback target: no error")
	}
}

// TestExpensiveAttacks checks the sizes the expensive attacks claim.
func TestExpensiveAttacks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Len", r.Header.Get("Content-Length"))
	}))
	defer srv.Close()
	names := map[string][2]int64{"list-0.5mb": {400 << 10, 600 << 10}, "large-2mb": {1800 << 10, 2300 << 10}}
	mix := AttacksNamed([]string{"list-0.5mb", "large-2mb"})
	if len(mix) != 2 {
		t.Fatalf("AttacksNamed: %d attacks", len(mix))
	}
	for _, a := range mix {
		var n int64
		c := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			n = r.ContentLength
			return http.DefaultTransport.RoundTrip(r)
		})}
		status, ok := a.send(context.Background(), c, srv.URL, 0)
		r := names[a.Name]
		if status != 200 || !ok || n < r[0] || n > r[1] {
			t.Errorf("%s: %d %t, %d bytes, want %d to %d", a.Name, status, ok, n, r[0], r[1])
		}
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
