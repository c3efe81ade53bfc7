package server

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/token"
)

// isoldaOf encodes g as an ISOLDA document (the default version).
func isoldaOf(t testing.TB, g Graph) string {
	t.Helper()
	f, _ := formats.Get("isolda")
	var b strings.Builder
	if err := f.Encode(&b, formats.NewInput(parse(t, g.Data, g.Format, ""))); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// cliBinary builds the isolda command into a temporary folder: the
// oracle of /v1/decode and /v1/tokens.
func cliBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the isolda CLI (the oracle):", err)
	}
	bin := filepath.Join(t.TempDir(), "isolda")
	out, err := exec.Command(goTool, "build", "-o", bin, "../cmd/isolda").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ../cmd/isolda: %v\n%s", err, out)
	}
	return bin
}

// runCLI runs the isolda command with stdin and returns its standard
// output.
func runCLI(t *testing.T, bin, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("isolda %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// TestDecodeTokensCLI checks /v1/decode and /v1/tokens against the CLI
// they stand for: the text of /v1/decode is, byte for byte, what `isolda
// decode -t TO` writes, and the count of /v1/tokens the number `isolda
// tokens --tokenizer NAME` prints.
func TestDecodeTokensCLI(t *testing.T) {
	bin := cliBinary(t)
	h := New(Config{AllowedTokenizers: []string{token.O200KBase, token.CL100KBase}})
	docs := map[string]string{
		"demo":      isoldaOf(t, Graph{Data: exampleTTL(t, "demo.ttl"), Format: "ttl"}),
		"entities":  isoldaOf(t, Graph{Data: syntheticNT(400), Format: "nt"}),
		"reference": isoldaOf(t, Graph{Data: exampleTTL(t, "lod-datagovuk-reference-intervals.ttl"), Format: "ttl"}),
	}
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		doc := docs[name]
		for _, to := range []string{"", "nquads", "ntriples", "turtle", "trig", "jsonld-compact", "b-ttl-ids", "isolda-0.2"} {
			args := []string{"decode"}
			if to != "" {
				args = append(args, "-t", to)
			}
			want := runCLI(t, bin, doc, args...)
			code, _, body := call(t, h, "POST", "/v1/decode", mustJSON(DecodeRequest{Text: doc, To: to}))
			if code != http.StatusOK {
				t.Errorf("%s to %q: %d %.300s", name, to, code, body)
				continue
			}
			r := decode[DecodeResponse](t, body)
			if r.Text != want {
				t.Errorf("%s to %q: the text differs from isolda decode's (%d bytes, want %d)", name, to, len(r.Text), len(want))
			}
			if r.Bytes != len(want) || r.Quads != parse(t, runCLI(t, bin, doc, "decode"), "nq", "").Len() {
				t.Errorf("%s to %q: bytes %d quads %d", name, to, r.Bytes, r.Quads)
			}
		}
	}
	texts := []string{"", "hello world", "Ünïcödé ☃ 12345 <|endoftext|>\n\n\t  x", strings.Repeat("A", 5000),
		strings.Repeat(". ", 3000), docs["reference"], exampleTTL(t, "demo.ttl")}
	for i, text := range texts {
		for _, tz := range []string{"", token.O200KBase, token.CL100KBase} {
			args := []string{"tokens"}
			if tz != "" {
				args = append(args, "--tokenizer", tz)
			}
			want := strings.TrimSpace(runCLI(t, bin, text, args...))
			code, _, body := call(t, h, "POST", "/v1/tokens", mustJSON(TokensRequest{Text: text, Tokenizer: tz}))
			if code != http.StatusOK {
				t.Errorf("text %d %q: %d %.300s", i, tz, code, body)
				continue
			}
			r := decode[TokensResponse](t, body)
			got, _ := json.Marshal(r.Tokens)
			if string(got) != want || r.Bytes != len(text) || r.Tokenizer != cmpOr(tz, token.O200KBase) {
				t.Errorf("text %d %q: %+v, isolda tokens says %s", i, tz, r, want)
			}
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestDecodeTokensErrors checks the error answers of /v1/decode and
// /v1/tokens: a malformed document names its line and column.
func TestDecodeTokensErrors(t *testing.T) {
	h := New(Config{})
	doc := isoldaOf(t, Graph{Data: exampleTTL(t, "demo.ttl"), Format: "ttl"})
	for _, c := range []struct {
		path, body string
		code       int
		want       string
		line, col  int
	}{
		{"/v1/decode", `{"text": "@isolda 0.4\n@vocab http://schema.org/\n\nPerson[2]{name}:\n  Ada\n"}`, 400, "text: table header declares 2 rows", 4, 1},
		{"/v1/decode", mustJSON(DecodeRequest{Text: "not ISOLDA"}), 400, "text: ", 1, 0},
		{"/v1/decode", mustJSON(DecodeRequest{Text: doc, To: "nope"}), 422, "nope", 0, 0},
		{"/v1/decode", `{}`, 400, `"text" is required`, 0, 0},
		{"/v1/decode", `{"text": "x", "graph": {}}`, 400, "unknown field", 1, 0},
		{"/v1/decode", `{"text": 3}`, 400, "text", 1, 0},
		{"/v1/tokens", mustJSON(TokensRequest{Text: "x", Tokenizer: "/etc/passwd"}), 422, "not available", 0, 0},
		{"/v1/tokens", `{"text": "x", "to": "y"}`, 400, "unknown field", 1, 0},
		{"/v1/tokens", `[1]`, 400, "request body", 1, 0},
	} {
		code, _, body := call(t, h, "POST", c.path, c.body)
		e := decode[apiErr](t, body)
		if code != c.code || !strings.Contains(e.Error, c.want) || e.Line != c.line || c.col > 0 && e.Column != c.col {
			t.Errorf("%s %.80s: %d %.300s, want %d %q at line %d", c.path, c.body, code, body, c.code, c.want, c.line)
		}
		if c.path == "/v1/decode" && c.code == 400 && strings.HasPrefix(e.Error, "text: ") && e.Column == 0 {
			t.Errorf("%.80s: no column: %.300s", c.body, body)
		}
	}
	// A document over the quad limit is too large.
	code, _, body := call(t, New(Config{MaxQuads: 5}), "POST", "/v1/decode", mustJSON(DecodeRequest{Text: doc}))
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("over the quad limit: %d %.300s", code, body)
	}
}

// TestDecodeTokensBudget checks /v1/decode and /v1/tokens reserve memory
// as the other endpoints: a request that alone needs more than the
// budget gets 413, one that finds it taken 503 with Retry-After, and the
// reservations are given back.
func TestDecodeTokensBudget(t *testing.T) {
	s := New(Config{MemoryBudget: 32 << 20}).(*server)
	big := isoldaOf(t, Graph{Data: syntheticNT(20_000), Format: "nt"})
	code, _, body := call(t, s, "POST", "/v1/decode", mustJSON(DecodeRequest{Text: big}))
	if e := decode[apiErr](t, body); code != http.StatusRequestEntityTooLarge || !strings.Contains(e.Error, "memory budget of 32.0 MiB") {
		t.Errorf("a document larger than the budget (%d bytes): %d %.300s", len(big), code, body)
	}
	// A run of one character is costly to count: 200 bytes a byte.
	long := strings.Repeat("A", 200_000)
	code, _, body = call(t, s, "POST", "/v1/tokens", mustJSON(TokensRequest{Text: long}))
	if e := decode[apiErr](t, body); code != http.StatusRequestEntityTooLarge || !strings.Contains(e.Error, "memory budget") {
		t.Errorf("a text whose counting needs more than the budget: %d %.300s", code, body)
	}
	small := isoldaOf(t, Graph{Data: syntheticNT(200), Format: "nt"})
	for _, c := range []struct{ path, body string }{
		{"/v1/decode", mustJSON(DecodeRequest{Text: small})},
		{"/v1/tokens", mustJSON(TokensRequest{Text: small})},
	} {
		checkBudgetTaken(t, s, c.path, c.body)
	}
	if used, _, _, tooLarge := s.mem.stats(); used != 0 || tooLarge != 2 {
		t.Errorf("budget after the requests: used %d, too large %d", used, tooLarge)
	}
}

// BenchmarkMemoryDecode measures the peak live heap of /v1/decode
// against the memory it reserves (estimate.go: decodeCost, then
// estimate), for the ISOLDA documents of the shapes of
// BenchmarkMemoryPerQuad and, with ../shared, of nomisma (ISOLDA_DECODE_QUADS
// lines of it, default 200,000): peak/reserved above 1 means the
// estimate is too low.
//
//	go test ./server -run '^$' -bench MemoryDecode -benchtime 1x
func BenchmarkMemoryDecode(b *testing.B) {
	shapes := memoryShapes(b)
	if _, err := shared.Path("data", "big", "nomisma.nt.gz"); err == nil {
		n := 200_000
		if v := os.Getenv("ISOLDA_DECODE_QUADS"); v != "" {
			json.Unmarshal([]byte(v), &n)
		}
		shapes["nomisma"] = Graph{Data: nomismaSlice(b, n), Format: "nt"}
	}
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		doc := isoldaOf(b, shapes[name])
		for _, to := range []string{"nquads", "turtle"} {
			body := mustJSON(DecodeRequest{Text: doc, To: to})
			b.Run(name+"/"+to, func(b *testing.B) {
				var peak, reserved int64
				quads := 0
				for range b.N {
					s := New(Config{MaxRequestBytes: 256 << 20, MaxQuads: 10_000_000, Timeout: 10 * time.Minute}).(*server)
					var code int
					var out []byte
					peak = max(peak, heapPeak(func() { code, _, out = call(b, s, "POST", "/v1/decode", body) }))
					if code != http.StatusOK {
						b.Fatalf("%d %.300s", code, out)
					}
					quads = decode[DecodeResponse](b, out).Quads
					_, p, _, _ := s.mem.stats()
					reserved = max(reserved, p)
				}
				b.ReportMetric(float64(len(doc)), "doc-bytes")
				b.ReportMetric(float64(quads), "quads")
				b.ReportMetric(float64(peak)/float64(len(doc)), "peak-B/byte")
				b.ReportMetric(float64(peak)/float64(reserved), "peak/reserved")
			})
		}
	}
}

// TestIsolatedDecodeTokens checks /v1/decode and /v1/tokens answer the
// same bytes in a worker process as in process, both when the body goes
// to a worker at once (Isolation.MinBytes) and when the work finds the
// request large (the document over LargeBytes/decodeDensity, the text over
// LargeBytes) and moves it to a worker after its JSON is decoded.
func TestIsolatedDecodeTokens(t *testing.T) {
	doc := isoldaOf(t, Graph{Data: exampleTTL(t, lexeme), Format: "ttl"})
	cases := []struct{ name, path, body string }{
		{"decode", "/v1/decode", mustJSON(DecodeRequest{Text: doc})},
		{"decode turtle", "/v1/decode", mustJSON(DecodeRequest{Text: doc, To: "turtle"})},
		{"decode error", "/v1/decode", mustJSON(DecodeRequest{Text: "@isolda 0.4\nPerson[2]{name}:\n  Ada\n"})},
		{"decode unknown format", "/v1/decode", mustJSON(DecodeRequest{Text: doc, To: "nope"})},
		{"tokens", "/v1/tokens", mustJSON(TokensRequest{Text: doc})},
		{"tokens cl100k", "/v1/tokens", mustJSON(TokensRequest{Text: doc, Tokenizer: token.CL100KBase})},
		{"tokens memory budget", "/v1/tokens", mustJSON(TokensRequest{Text: strings.Repeat("A", 1_000_000)})},
	}
	for _, found := range []bool{false, true} {
		for _, c := range cases {
			cfg := Config{AllowedTokenizers: []string{token.O200KBase, token.CL100KBase}, MemoryBudget: 128 << 20}
			minBytes := int64(1)
			if found {
				cfg.LargeBytes, minBytes = 1000, 0
			}
			in := New(cfg)
			out := New(isolated(t, cfg, "serve", minBytes)).(*server)
			code, hdr, body := call(t, in, "POST", c.path, c.body)
			icode, ihdr, ibody := call(t, out, "POST", c.path, c.body)
			if code != icode || hdr.Get("Retry-After") != ihdr.Get("Retry-After") || string(body) != string(ibody) {
				t.Errorf("%s (found large %v): in process %d %.300s\nin a worker %d %.300s", c.name, found, code, body, icode, ibody)
				continue
			}
			want := uint64(1)
			if found && (c.name == "decode unknown format" || c.name == "decode error" && len(c.body) < 1000) {
				want = 0 // refused before it is found large
			}
			if out.workers.started != want {
				t.Errorf("%s (found large %v): %d workers started, want %d", c.name, found, out.workers.started, want)
			}
			if used, _, _, _ := out.mem.stats(); used != 0 {
				t.Errorf("%s: %d bytes still reserved", c.name, used)
			}
		}
	}
}
