package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
)

// TestBuiltInRequest checks the built-in body against the data file: the
// first and the 1,000th lines of nomisma.nt.gz (from `zcat | head`) and
// 116,587 bytes of N-Triples.
func TestBuiltInRequest(t *testing.T) {
	path := shared.MustPath(t, "data", "big", "nomisma.nt.gz")
	o := &options{data: path, triples: 1000, format: "isolda", tokenizer: "o200k_base", budget: 2000, truncation: "record"}
	body, desc, err := requestBody(o)
	if err != nil {
		t.Fatal(err)
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(req.Graph.Data, "\n"), "\n")
	first := "<http://nomisma.org/id/-des_cos> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://xmlns.com/foaf/0.1/Person> ."
	last := "<http://nomisma.org/id/15-ducats#provenance> <http://xmlns.com/foaf/0.1/topic> <http://nomisma.org/id/15-ducats> ."
	if len(lines) != 1000 || lines[0] != first || lines[999] != last || len(req.Graph.Data) != 116587 {
		t.Errorf("%d lines, %d bytes, first %q, last %q", len(lines), len(req.Graph.Data), lines[0], lines[len(lines)-1])
	}
	if req.Graph.Format != "nt" || req.Format != "isolda" || req.Tokenizer != "o200k_base" || req.Budget != 2000 || req.Truncation != "record" {
		t.Errorf("request %+v", req)
	}
	if !strings.Contains(desc, "budget 2000 (record truncation)") {
		t.Errorf("description %q", desc)
	}
	if _, err := firstTriples(path, 1_000_000); err == nil {
		t.Error("asking for more triples than the file has: no error")
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--rate", "0"}, {"--rate", "100,x"}, {"--triples", "0"}, {"--truncation", "words"}, {"extra"}, {"--nope"},
	} {
		if code := run(args, io.Discard, io.Discard); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	if code := run([]string{"--help"}, io.Discard, io.Discard); code != 0 {
		t.Errorf("--help: exit %d, want 0", code)
	}
	o, err := parseFlags([]string{"--url", "http://127.0.0.1:9/v1/serialize", "--pid", "7", "--rate", "100, 200"}, io.Discard)
	if err != nil || o.metrics != "http://127.0.0.1:9/metrics" || len(o.rates) != 2 || o.rates[1] != 200 {
		t.Errorf("got %+v, %v", o, err)
	}
}

// stub is a /v1/serialize stand-in answering with status code.
func stub(t *testing.T, code int) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if n.Add(1) > 1 && code != http.StatusOK {
			w.WriteHeader(code)
			return
		}
		io.WriteString(w, `{"text":"x","tokens":1,"bytes":1,"tokenizer":"o200k_base","quads":3,"format":"isolda","graph_hash":"ab"}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestRunRamp(t *testing.T) {
	srv, n := stub(t, http.StatusOK)
	dir := t.TempDir()
	bodyFile, jsonFile := filepath.Join(dir, "body.json"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(bodyFile, []byte(`{"graph":{"data":""}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	code := run([]string{"--url", srv.URL, "--body", bodyFile, "--rate", "50,100", "--duration", "200ms",
		"--window", "100ms", "--pause", "0", "--json", jsonFile, "--strict", "--target-p99", "0", "--pid", "0"}, &out, io.Discard)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	if got := n.Load(); got != 1+10+20 {
		t.Errorf("the server saw %d requests, want 31 (1 preflight, 10 at 50/s and 20 at 100/s for 200ms)", got)
	}
	for _, want := range []string{"preflight   200", "quads 3", "== stage 2/2: 100 req/s", "== ramp", "target      MET"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	b, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Stages []struct {
			Rate float64 `json:"rate"`
			OK   int     `json:"ok"`
		} `json:"stages"`
	}
	if err := json.Unmarshal(b, &res); err != nil || len(res.Stages) != 2 || res.Stages[0].OK != 10 || res.Stages[1].OK != 20 {
		t.Errorf("json %+v %v", res, err)
	}
}

func TestRunStrict(t *testing.T) {
	srv, _ := stub(t, http.StatusTooManyRequests)
	dir := t.TempDir()
	bodyFile := filepath.Join(dir, "body.json")
	if err := os.WriteFile(bodyFile, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	code := run([]string{"--url", srv.URL, "--body", bodyFile, "--rate", "50", "--duration", "100ms", "--strict"}, &out, io.Discard)
	if code != 1 || !strings.Contains(out.String(), "errors      5 (429: 5)") || !strings.Contains(out.String(), "NOT MET") {
		t.Errorf("exit %d, want 1 with 5 errors:\n%s", code, out.String())
	}
	// A failed preflight stops before the run.
	bad, _ := stub(t, http.StatusOK)
	bad.Close()
	if code := run([]string{"--url", bad.URL, "--body", bodyFile, "--duration", "100ms"}, io.Discard, io.Discard); code != 1 {
		t.Errorf("closed server: exit %d, want 1", code)
	}
}
