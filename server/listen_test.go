package server

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestListenerRefusesEarlyComebacks: a client back before the Retry-After
// of its last refusal is answered 429, with Retry-After, at the listener:
// the HTTP server never sees its connection (no ConnState event), however
// large the body it sends, and its wait doubles; another client's
// connection is served as before.
func TestListenerRefusesEarlyComebacks(t *testing.T) {
	h := New(Config{MaxConcurrent: 4, MaxLarge: 1})
	s := h.(*server)
	other := holdLarge(t, s, "192.0.2.9")
	defer other.release()
	if _, e := s.adm.admitLarge("127.0.0.1"); e == nil || e.RetryAfter < 1 {
		t.Fatalf("large request with the large slot taken: %v", e)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	srv := &http.Server{Handler: h, ConnState: func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			mu.Lock()
			seen[clientOf(c.RemoteAddr().String())]++
			mu.Unlock()
		}
	}}
	go srv.Serve(Listener(h, ln))
	defer srv.Close()
	url := "http://" + ln.Addr().String()

	post := func(local string, body []byte) (*http.Response, []byte) {
		t.Helper()
		tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}).DialContext}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Post(url+"/v1/serialize", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatalf("from %s: %v", local, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	var retries []string
	for _, body := range [][]byte{[]byte(`{"graph":{"data":"<http://a/b> <http://a/c> <http://a/d> ."},"format":"isolda"}`), bytes.Repeat([]byte(" "), 2<<20)} {
		resp, b := post("127.0.0.1", body)
		if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), "came back before the Retry-After") ||
			resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("early comeback with %d bytes: %d %s", len(body), resp.StatusCode, b)
		}
		retries = append(retries, resp.Header.Get("Retry-After"))
	}
	if retries[0] == "" || retries[0] == retries[1] {
		t.Errorf("Retry-After of two early comebacks: %q, want a doubling wait", retries)
	}
	resp, b := post("127.0.0.2", []byte(`{"graph":{"data":"<http://a/b> <http://a/c> <http://a/d> ."},"format":"isolda"}`))
	if resp.StatusCode != http.StatusOK {
		t.Errorf("another client: %d %s", resp.StatusCode, b)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["127.0.0.1"] != 0 || seen["127.0.0.2"] != 1 {
		t.Errorf("connections the HTTP server saw, by client: %v", seen)
	}
	if n := s.adm.connRefusals(); n != 2 {
		t.Errorf("%d connections refused, want 2", n)
	}
}

// TestRefusalResponse: the pre-written answer is a well-formed HTTP/1.1
// response, as writeError would write it.
func TestRefusalResponse(t *testing.T) {
	raw := refusal(tooMany(8, "retry after %s", "8s"))
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "8" || !resp.Close ||
		string(b) != "{\"error\":\"retry after 8s\"}\n" {
		t.Errorf("%d %v %q", resp.StatusCode, resp.Header, b)
	}
}
