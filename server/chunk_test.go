package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/token"
)

// chunkArgs returns the isolda chunk flags of the options of r (its
// graph aside).
func chunkArgs(r ChunkRequest) []string {
	args := []string{"chunk", "-f", r.Graph.Format}
	if r.To != "" {
		args = append(args, "-t", r.To)
	}
	if r.Budget != nil {
		args = append(args, "--budget", strconv.Itoa(*r.Budget))
	}
	if r.Hops != 0 {
		args = append(args, "--hops", strconv.Itoa(r.Hops))
	}
	for _, c := range r.Class {
		args = append(args, "--class", c)
	}
	if r.Glossary != "" {
		args = append(args, "--glossary", r.Glossary)
	}
	if r.Tokenizer != "" {
		args = append(args, "--tokenizer", r.Tokenizer)
	}
	return args
}

func intp(n int) *int { return &n }

// dupBlanks is a graph with a repeated statement, blank nodes and a
// named graph's worth of links, in Turtle.
const dupBlanks = `@prefix s: <http://schema.org/> .
@prefix ex: <http://example.org/> .
ex:a a s:Person ; s:name "A <&> \"quoted\"", "A"@fr ; s:knows ex:b, [ s:name "anon" ; s:knows ex:a ] .
ex:a s:name "A <&> \"quoted\"" .
ex:b a s:Person ; s:name "B" ; s:address [ s:street "1 Main St" ; s:city [ s:name "Town" ] ] .
ex:c s:about ex:a, ex:b ; s:name "C" .
`

// TestChunkCLI checks /v1/chunk against the CLI it stands for: every
// document of the answer, written as JSON (chunk.Chunk.AppendJSON), is
// the line `isolda chunk` writes for the same graph and options, in the
// same order, and the counts are the lines'.
func TestChunkCLI(t *testing.T) {
	bin := cliBinary(t)
	h := New(Config{AllowedTokenizers: []string{token.O200KBase, token.CL100KBase}})
	graphs := map[string]Graph{
		"demo":      {Data: exampleTTL(t, "demo.ttl"), Format: "ttl"},
		"entities":  {Data: syntheticNT(400), Format: "nt"},
		"reference": {Data: exampleTTL(t, "lod-datagovuk-reference-intervals.ttl"), Format: "ttl"},
		"blanks":    {Data: dupBlanks, Format: "ttl"},
	}
	options := []ChunkRequest{
		{},
		{Budget: intp(40), Class: []string{"schema:Person"}},
		{Budget: intp(0), Hops: 2},
		{To: "turtle", Budget: intp(120), Tokenizer: token.CL100KBase},
		{To: "b-ttl-ids", Hops: 3, Class: []string{"http://example.org/C1", "schema:Person"}},
		{Glossary: "none", Budget: intp(64)},
		{To: "isolda-0.2", Glossary: "legend"},
	}
	for _, name := range slices.Sorted(maps.Keys(graphs)) {
		g := graphs[name]
		for _, o := range options {
			o.Graph = &g
			args := chunkArgs(o)
			want := runCLI(t, bin, g.Data, args...)
			code, _, body := call(t, h, "POST", "/v1/chunk", mustJSON(o))
			if code != http.StatusOK {
				t.Errorf("%s %v: %d %.300s", name, args[3:], code, body)
				continue
			}
			r := decode[ChunkResponse](t, body)
			var got []byte
			for i := range r.Documents {
				got = r.Documents[i].AppendJSON(got)
			}
			if string(got) != want {
				t.Errorf("%s %v: the documents differ from isolda chunk's lines (%d bytes, want %d)\n%.400s\nwant\n%.400s",
					name, args[3:], len(got), len(want), got, want)
			}
			lines := strings.Count(want, "\n")
			if r.Entities != lines || len(r.Documents) != lines || r.Bytes != len(want) ||
				r.Quads != parse(t, g.Data, g.Format, "").Len() || r.Tokenizer != cmpOr(o.Tokenizer, token.O200KBase) {
				t.Errorf("%s %v: entities %d documents %d bytes %d quads %d tokenizer %s; isolda chunk wrote %d lines, %d bytes",
					name, args[3:], r.Entities, len(r.Documents), r.Bytes, r.Quads, r.Tokenizer, lines, len(want))
			}
			if name == "demo" && len(o.Class) == 0 && lines == 0 {
				t.Errorf("%s %v: no document", name, args[3:])
			}
		}
	}
}

// TestChunkErrors checks the error answers of /v1/chunk: a graph that
// does not parse names its line and column, as in /v1/serialize, and
// options isolda chunk refuses are 422.
func TestChunkErrors(t *testing.T) {
	h := New(Config{})
	demo := Graph{Data: exampleTTL(t, "demo.ttl"), Format: "ttl"}
	for _, c := range []struct {
		body      string
		code      int
		want      string
		line, col int
	}{
		{`{"graph": {"data": "@prefix s: <http://schema.org/> .\n\ns:a s:b ."}}`, 400, "graph: ", 3, 9},
		{`{}`, 400, `"graph" is required`, 0, 0},
		{`{"graph": {"data": "x"}, "format": "turtle"}`, 400, "unknown field", 1, 0},
		{`{"graph": {"data": "x"}, "budget": "many"}`, 400, "budget", 1, 0},
		{mustJSON(ChunkRequest{Graph: &demo, Budget: intp(-1)}), 422, "negative", 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, Budget: intp(3)}), 422, `smaller than the isolda document of an empty graph (21 tokens); leave the glossary out with "glossary": "none"`, 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, Hops: 9}), 422, "hops 9: give 1 to 8", 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, Hops: -1}), 422, "hops -1", 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, To: "nope"}), 422, "nope", 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, Class: []string{"nope:Thing"}}), 422, "class: ", 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, To: "turtle", Glossary: "none"}), 422, "ISOLDA formats only", 0, 0},
		{mustJSON(ChunkRequest{Graph: &demo, Tokenizer: "/etc/passwd"}), 422, "not available", 0, 0},
		{mustJSON(ChunkRequest{Graph: &Graph{Data: demo.Data, Format: "klingon"}}), 422, "graph.format", 0, 0},
	} {
		code, _, body := call(t, h, "POST", "/v1/chunk", c.body)
		e := decode[apiErr](t, body)
		if code != c.code || !strings.Contains(e.Error, c.want) || e.Line != c.line || c.col > 0 && e.Column != c.col {
			t.Errorf("%.80s: %d %.300s, want %d %q at line %d", c.body, code, body, c.code, c.want, c.line)
		}
	}
	// A graph over the quad limit is too large.
	code, _, body := call(t, New(Config{MaxQuads: 5}), "POST", "/v1/chunk", mustJSON(ChunkRequest{Graph: &demo}))
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("over the quad limit: %d %.300s", code, body)
	}
	// An empty graph has no entity: an empty list, not null.
	code, _, body = call(t, h, "POST", "/v1/chunk", `{"graph": {"data": "# nothing\n", "format": "nt"}}`)
	if code != http.StatusOK || !strings.Contains(string(body), `"documents":[]`) {
		t.Errorf("an empty graph: %d %.300s", code, body)
	}
}

// TestChunkBudget checks /v1/chunk reserves memory as the other
// endpoints: a graph whose chunking alone needs more than the budget
// gets 413, one that finds it taken 503 with Retry-After, and the
// reservations are given back.
func TestChunkBudget(t *testing.T) {
	s := New(Config{MemoryBudget: 32 << 20}).(*server)
	big := Graph{Data: syntheticNT(20_000), Format: "nt"}
	code, _, body := call(t, s, "POST", "/v1/chunk", mustJSON(ChunkRequest{Graph: &big}))
	if e := decode[apiErr](t, body); code != http.StatusRequestEntityTooLarge || !strings.Contains(e.Error, "memory budget of 32.0 MiB") {
		t.Errorf("a graph whose chunking needs more than the budget (%d bytes): %d %.300s", len(big.Data), code, body)
	}
	checkBudgetTaken(t, s, "/v1/chunk", mustJSON(ChunkRequest{Graph: &Graph{Data: syntheticNT(200), Format: "nt"}}))
	if used, _, _, tooLarge := s.mem.stats(); used != 0 || tooLarge != 1 {
		t.Errorf("budget after the requests: used %d, too large %d", used, tooLarge)
	}
}

// BenchmarkMemoryChunk measures the peak live heap of /v1/chunk against
// the memory it reserves (estimate.go: chunkCost), for the shapes of
// BenchmarkMemoryPerQuad and, with ../shared, nomisma (ISOLDA_CHUNK_QUADS
// lines of it, default 200,000), with 1, 2 and 3 hops: peak/reserved above
// 1 means the estimate is too low.
//
//	go test ./server -run '^$' -bench MemoryChunk -benchtime 1x
func BenchmarkMemoryChunk(b *testing.B) {
	shapes := memoryShapes(b)
	if _, err := shared.Path("data", "big", "nomisma.nt.gz"); err == nil {
		n := 200_000
		if v := os.Getenv("ISOLDA_CHUNK_QUADS"); v != "" {
			json.Unmarshal([]byte(v), &n)
		}
		shapes["nomisma"] = Graph{Data: nomismaSlice(b, n), Format: "nt"}
	}
	toks := token.NewRegistry(token.Options{})
	call(b, New(Config{Tokenizers: toks}), "POST", "/v1/chunk", `{"graph": {"data": "<http://a> <http://b> \"c\" ."}}`)
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		g := shapes[name]
		for _, hops := range []int{1, 2, 3} {
			body := mustJSON(ChunkRequest{Graph: &g, Hops: hops})
			b.Run(name+"/hops-"+strconv.Itoa(hops), func(b *testing.B) {
				var peak, reserved int64
				var r ChunkResponse
				for range b.N {
					s := New(Config{MaxRequestBytes: 256 << 20, MaxQuads: 10_000_000, Timeout: 10 * time.Minute, Tokenizers: toks,
						MemoryBudget: 8 << 30}).(*server)
					var code int
					var out []byte
					peak = max(peak, heapPeak(func() { code, _, out = call(b, s, "POST", "/v1/chunk", body) }))
					if code != http.StatusOK {
						b.Fatalf("%d %.300s", code, out)
					}
					r = decode[ChunkResponse](b, out)
					_, p, _, _ := s.mem.stats()
					reserved = max(reserved, p)
				}
				b.ReportMetric(float64(r.Quads), "quads")
				b.ReportMetric(float64(r.Entities), "entities")
				b.ReportMetric(float64(r.Bytes)/float64(r.Quads), "out-B/quad")
				b.ReportMetric(float64(peak)/float64(r.Quads), "peak-B/quad")
				b.ReportMetric(float64(reserved)/float64(r.Quads), "reserved-B/quad")
				b.ReportMetric(float64(peak)/float64(reserved), "peak/reserved")
			})
		}
	}
}

// TestIsolatedChunk checks /v1/chunk answers the same bytes in a worker
// process as in process, both when the body goes to a worker at once
// (Isolation.MinBytes) and when the work finds the request large (its
// data over LargeBytes) and moves it to a worker after its JSON is
// decoded.
func TestIsolatedChunk(t *testing.T) {
	g := Graph{Data: exampleTTL(t, lexeme), Format: "ttl"}
	cases := []struct{ name, body string }{
		{"chunk", mustJSON(ChunkRequest{Graph: &g})},
		{"chunk turtle 2 hops", mustJSON(ChunkRequest{Graph: &g, To: "turtle", Hops: 2, Budget: intp(200), Tokenizer: token.CL100KBase})},
		{"chunk parse error", mustJSON(ChunkRequest{Graph: &Graph{Data: g.Data + "\n<http://a> <http://b> .", Format: "ttl"}})},
		{"chunk bad hops", mustJSON(ChunkRequest{Graph: &g, Hops: 99})},
	}
	for _, found := range []bool{false, true} {
		for _, c := range cases {
			// The time limit leaves room for a worker process started at a
			// lower priority on a loaded machine.
			cfg := Config{AllowedTokenizers: []string{token.O200KBase, token.CL100KBase}, MemoryBudget: 256 << 20,
				Timeout: time.Minute}
			minBytes := int64(1)
			if found {
				cfg.LargeBytes, minBytes = 1000, 0
			}
			in := New(cfg)
			out := New(isolated(t, cfg, "serve", minBytes)).(*server)
			code, hdr, body := call(t, in, "POST", "/v1/chunk", c.body)
			icode, ihdr, ibody := call(t, out, "POST", "/v1/chunk", c.body)
			if code != icode || hdr.Get("Retry-After") != ihdr.Get("Retry-After") || string(body) != string(ibody) {
				t.Errorf("%s (found large %v): in process %d %.300s\nin a worker %d %.300s", c.name, found, code, body, icode, ibody)
				continue
			}
			want := uint64(1)
			if found && c.name == "chunk bad hops" {
				want = 0 // refused before it is found large
			}
			if out.workers.started != want {
				t.Errorf("%s (found large %v): %d workers started, want %d", c.name, found, out.workers.started, want)
			}
			if used, _, _, _ := out.mem.stats(); used != 0 {
				t.Errorf("%s: %d bytes still reserved", c.name, used)
			}
			if c.name == "chunk" && (code != http.StatusOK || len(decode[ChunkResponse](t, body).Documents) == 0) {
				t.Errorf("%s: %d %.300s", c.name, code, body)
			}
		}
	}
}

// TestChunkOpenAPI checks the schemas of /v1/chunk in openapi.json name
// the JSON fields of ChunkRequest, ChunkResponse and chunk.Chunk, no
// more and no fewer, and require those without omitempty.
func TestChunkOpenAPI(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Required   []string                   `json:"required"`
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"ChunkRequest": ChunkRequest{}, "ChunkResponse": ChunkResponse{}, "ChunkDocument": chunk.Chunk{}} {
		s, ok := doc.Components.Schemas[name]
		if !ok {
			t.Errorf("openapi.json has no schema %s", name)
			continue
		}
		var fields, required []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			tag, opts, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			fields = append(fields, tag)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, tag)
			}
		}
		slices.Sort(fields)
		slices.Sort(required)
		got := slices.Sorted(maps.Keys(s.Properties))
		req := slices.Sorted(slices.Values(s.Required))
		if !slices.Equal(got, fields) || !slices.Equal(req, required) {
			t.Errorf("openapi.json %s: properties %v, required %v; the Go type has %v, required %v", name, got, req, fields, required)
		}
	}
}

// TestChunkDiskBound checks that /v1/chunk bounds the disk of a request:
// its sorts may write chunkSpillPerByte bytes per byte of the largest
// body to the temporary folder. A small dense graph chunked with 5 hops
// (whose third sorted set goes to disk) gets 413 naming the bound under
// a body limit of 32 KiB (a bound of 2 MiB), and 200 under one of 8 MiB
// (512 MiB), with the documents isolda chunk writes.
func TestChunkDiskBound(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "<http://example.org/e%d> <http://www.w3.org/2000/01/rdf-schema#label> \"entity %d\" .\n", i, i)
		for k := 1; k <= 8; k++ {
			fmt.Fprintf(&b, "<http://example.org/e%d> <http://example.org/p%d> <http://example.org/e%d> .\n", i, k%3, (i*7+k*k)%30)
		}
	}
	g := Graph{Data: b.String(), Format: "nt"}
	body := mustJSON(ChunkRequest{Graph: &g, Hops: 5})
	if len(body) > 32<<10 {
		t.Fatalf("a body of %d bytes", len(body))
	}
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	code, _, resp := call(t, New(Config{MaxRequestBytes: 32 << 10}), "POST", "/v1/chunk", body)
	if e := decode[apiErr](t, resp); code != http.StatusRequestEntityTooLarge ||
		!strings.Contains(e.Error, "more than 2.0 MiB of temporary files") || !strings.Contains(e.Error, "fewer hops") {
		t.Errorf("with a disk bound of 2 MiB: %d %.300s", code, resp)
	}
	code, _, resp = call(t, New(Config{MaxRequestBytes: 8 << 20}), "POST", "/v1/chunk", body)
	r := decode[ChunkResponse](t, resp)
	if code != http.StatusOK || r.Entities != 30 {
		t.Fatalf("with a disk bound of 512 MiB: %d %.300s", code, resp)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files left in the temporary folder: %v", left)
	}
}
