package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAttackBodies checks the poison graphs have the sizes the hostile
// mix is named after, and the request bodies are JSON.
func TestAttackBodies(t *testing.T) {
	if got := strings.Count(turtleList(poisonItems), " 1"); got != poisonItems {
		t.Errorf("list: %d items", got)
	}
	if n := len(turtleList(poisonItems)); n < 20_000 || n > 21_000 {
		t.Errorf("list: %d bytes, want about 20 KB", n)
	}
	if got := strings.Count(blankRing(100), "\n"); got != 100 {
		t.Errorf("ring: %d triples", got)
	}
	if got := strings.Count(blankClique(12), "\n"); got != 12*11 {
		t.Errorf("clique: %d triples", got)
	}
	var v struct {
		V []string `json:"http://example.org/v"`
	}
	if err := json.Unmarshal([]byte(jsonldValues(50)), &v); err != nil || len(v.V) != 50 {
		t.Errorf("JSON-LD values: %d, %v", len(v.V), err)
	}
	large := LargeTurtle(largeQuads)
	if got := 4 * strings.Count(large, " ;"); got < largeQuads-4 || len(large) > 8<<20 {
		t.Errorf("large graph: %d quads in %d bytes, want %d within 8 MiB", got, len(large), largeQuads)
	}
	var req struct {
		Graph struct{ Data, Format string }
	}
	body := graphBody("a \"b\"\n\x01", "ttl", `"format": "turtle"`)
	if err := json.Unmarshal(body, &req); err != nil || req.Graph.Data != "a \"b\"\n\x01" || req.Graph.Format != "ttl" {
		t.Errorf("graph body %s: %+v, %v", body, req, err)
	}
}

// TestRunHostile runs the whole mix against a stand-in server that refuses
// every request with 400 and a slow body with 408: every attack is sent
// and handled.
func TestRunHostile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == slowBodyBytes {
			io.ReadFull(r.Body, make([]byte, 2))
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusRequestTimeout)
			return
		}
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	mix := Attacks()
	res, err := RunHostile(context.Background(), HostileConfig{Base: srv.URL, Rate: 4 * float64(len(mix)), Duration: time.Second, Mix: mix})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Attacks {
		if a.Sent == 0 || a.Handled != a.Sent {
			t.Errorf("%s: sent %d, handled %d, %v", a.Name, a.Sent, a.Handled, a.Status)
		}
	}
	if res.Unhandled() != 0 {
		t.Errorf("%d unhandled", res.Unhandled())
	}
	var out bytes.Buffer
	res.WriteText(&out)
	if !strings.Contains(out.String(), "slow-body") || !strings.Contains(out.String(), "0 unhandled") {
		t.Errorf("text:\n%s", out.String())
	}
	// A server that does not answer is not handled.
	srv.Close()
	res, err = RunHostile(context.Background(), HostileConfig{Base: srv.URL, Rate: 20, Duration: 200 * time.Millisecond, Mix: mix[:2]})
	if err != nil || res.Unhandled() == 0 {
		t.Errorf("a closed server: %d unhandled, %v", res.Unhandled(), err)
	}
	if _, err := RunHostile(context.Background(), HostileConfig{Rate: 1, Duration: time.Second}); err == nil {
		t.Error("no base URL: no error")
	}
}
