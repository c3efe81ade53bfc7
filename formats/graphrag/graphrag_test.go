package graphrag

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
)

// The fixtures in testdata were produced by the GraphRAG article's reference
// program (benchmark_graph_formats.py, run with CPython 3.11.7) through
// testdata/gen_fixtures.py; its docstring gives the exact commands. They are
// the independent oracle of these tests.
type refFormat struct {
	UTF8Bytes  int    `json:"utf8_bytes"`
	Characters int    `json:"characters"`
	SHA256     string `json:"sha256"`
}

type refParamSet struct {
	Services    int                  `json:"services"`
	NoiseEdges  int                  `json:"noise_edges"`
	Seed        int64                `json:"seed"`
	Nodes       int                  `json:"nodes"`
	Edges       int                  `json:"edges"`
	GoldQueries GoldQueries          `json:"gold_queries"`
	Formats     map[string]refFormat `json:"formats"`
}

type refFixtures struct {
	Python    string        `json:"python"`
	ParamSets []refParamSet `json:"param_sets"`
	Hostile   struct {
		Nodes [][2]string       `json:"nodes"`
		Edges [][3]string       `json:"edges"`
		Texts map[string]string `json:"texts"`
	} `json:"hostile"`
}

func loadRef(t *testing.T) refFixtures {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var f refFixtures
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.ParamSets) == 0 {
		t.Fatal("no parameter sets in the fixtures")
	}
	return f
}

var referenceFormats = []string{PrettyJSON, CompactJSON, JSONL, CSV, TypedEdges}

func TestReferenceParameterSets(t *testing.T) {
	ref := loadRef(t)
	pass, fail := 0, 0
	for _, ps := range ref.ParamSets {
		name := fmt.Sprintf("services=%d,noise=%d,seed=%d", ps.Services, ps.NoiseEdges, ps.Seed)
		g, err := Generate(ps.Services, ps.NoiseEdges, ps.Seed)
		if err != nil {
			t.Fatal(err)
		}
		ok := true
		if len(g.Nodes) != ps.Nodes || len(g.Edges) != ps.Edges {
			t.Errorf("%s: %d nodes, %d edges; reference %d, %d", name, len(g.Nodes), len(g.Edges), ps.Nodes, ps.Edges)
			ok = false
		}
		if got := QuerySuite(g); !reflect.DeepEqual(got, ps.GoldQueries) {
			t.Errorf("%s: gold queries\n got %v\nwant %v", name, got, ps.GoldQueries)
			ok = false
		}
		for _, fname := range referenceFormats {
			want := ps.Formats[fname]
			text, err := EncodeString(fname, g)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(text))
			got := refFormat{len(text), utf8.RuneCountInString(text), hex.EncodeToString(sum[:])}
			if got != want {
				t.Errorf("%s %s: got %+v, reference %+v", name, fname, got, want)
				ok = false
			}
		}
		if ok {
			pass++
		} else {
			fail++
		}
	}
	t.Logf("graphrag reference parameter sets: %d passed, %d failed (5 formats each, byte counts and SHA-256)", pass, fail)
}

func TestDefaultGraphTexts(t *testing.T) {
	g, err := Generate(40, 80, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 43 || len(g.Edges) != 88 {
		t.Fatalf("default graph has %d nodes and %d edges, want 43 and 88", len(g.Nodes), len(g.Edges))
	}
	for _, f := range Formats() {
		if !f.Reference {
			continue
		}
		want, err := os.ReadFile("testdata/default/graph." + f.Name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeString(f.Name, g)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: output differs from the reference program's text", f.Name)
		}
		dec, err := DecodeString(f.Name, string(want), DecodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("%s: decoding the reference text: %v", f.Name, err)
		}
		if !Equal(dec, g) {
			t.Errorf("%s: decoded reference text differs from the generated graph", f.Name)
		}
	}
}

func TestReport(t *testing.T) {
	data, err := os.ReadFile("testdata/default/report.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	p := DefaultParameters()
	p.Output = "baseline.json" // as the fixture was run
	rep, err := Run(p, nil, func(s string) int { return len(strings.Fields(s)) })
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for _, f := range got["formats"].(map[string]any) {
		m := f.(map[string]any)
		if m["tokens"].(float64) <= 0 {
			t.Error("the injected token counter was not used")
		}
		delete(m, "tokens")
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("report differs from the reference program's\n got %s\nwant %s", out, data)
	}
	// The formats keep the reference program's order.
	last := -1
	for _, name := range referenceFormats {
		i := strings.Index(string(out), `"`+name+`":{`)
		if i <= last {
			t.Errorf("format %s out of order in the report", name)
		}
		last = i
	}
}

func hostileGraph(t *testing.T, ref refFixtures) Graph {
	t.Helper()
	var g Graph
	for _, n := range ref.Hostile.Nodes {
		g.Nodes = append(g.Nodes, Node{n[0], n[1]})
	}
	for _, e := range ref.Hostile.Edges {
		g.Edges = append(g.Edges, Edge{e[0], e[1], e[2]})
	}
	return g
}

func TestHostileIdentifiers(t *testing.T) {
	ref := loadRef(t)
	g := hostileGraph(t, ref)
	for _, name := range referenceFormats {
		want := ref.Hostile.Texts[name]
		got, err := EncodeString(name, g)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: hostile graph\n got %q\nwant %q", name, got, want)
		}
		dec, err := DecodeString(name, want, DecodeOptions{})
		if err != nil {
			t.Errorf("%s: decoding the reference text: %v", name, err)
			continue
		}
		if !Equal(dec, g) {
			t.Errorf("%s: hostile round trip differs", name)
		}
		if _, err := DecodeString(name, want, DecodeOptions{Strict: true}); err == nil || !strings.Contains(err.Error(), "orphan") {
			t.Errorf("%s: strict decoding should reject the orphan edge, got %v", name, err)
		}
	}
	// Characters the reference program cannot carry through every format
	// (a bare "\r" and U+0085 break its splitlines-based decoders) must
	// round-trip here, in every format including the dictionary variant.
	g.Nodes = append(g.Nodes, Node{"cr\rret", "service"}, Node{"nel\u0085x", "team"}, Node{"crlf\r\n", "service"})
	g.Edges = append(g.Edges, Edge{"cr\rret", "depends_on", "crlf\r\n"})
	for _, f := range Formats() {
		text, err := EncodeString(f.Name, g)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := DecodeString(f.Name, text, DecodeOptions{})
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if !Equal(dec, g) {
			t.Errorf("%s: round trip with carriage returns differs", f.Name)
		}
	}
}

func TestDictionary(t *testing.T) {
	g, err := Generate(4, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	text, err := EncodeString(TypedEdgesDict, g)
	if err != nil {
		t.Fatal(err)
	}
	// The article's dictionary and record shapes ("REL: d=depends_on,
	// o=owned_by / TYPE: s=service, t=team, b=database / N|svc-api|s /
	// E|svc-api|d|svc-auth"), with a version line.
	want := "#graph-dict-v1\nREL|d=depends_on|o=owned_by\nTYPE|s=service|t=team|b=database\n" +
		"N|db-identity|b\nN|svc-api|s\nN|svc-auth|s\nN|svc-profile|s\nN|svc-web|s\nN|team-core|t\nN|team-growth|t\n" +
		"E|svc-api|d|svc-auth\nE|svc-api|o|team-core\nE|svc-auth|d|db-identity\nE|svc-auth|o|team-core\n" +
		"E|svc-profile|d|svc-auth\nE|svc-profile|o|team-growth\nE|svc-web|d|svc-api\nE|svc-web|o|team-growth"
	if text != want {
		t.Errorf("typed_edges_dict:\n got %q\nwant %q", text, want)
	}
	d := DictionaryFor(Graph{
		Nodes: []Node{{"a", "service"}, {"b", "server"}, {"c", "|x"}, {"d", "sx"}},
		Edges: []Edge{{"a", "owned_by", "b"}, {"a", "runs", "b"}, {"a", "reads", "c"}},
	})
	wantD := Dictionary{
		Relations: []Code{{"o", "owned_by"}, {"r", "reads"}, {"r2", "runs"}},
		Types:     []Code{{"s", "service"}, {"s2", "server"}, {"s3", "sx"}, {"x", "|x"}},
	}
	if !reflect.DeepEqual(d, wantD) {
		t.Errorf("DictionaryFor = %+v, want %+v", d, wantD)
	}
	if err := EncodeTypedEdgesDict(&strings.Builder{}, g, Dictionary{Relations: []Code{{"d", DependsOn}}}); err == nil {
		t.Error("encoding with a dictionary lacking codes should fail")
	}
	if err := (Dictionary{Types: []Code{{"a=b", "x"}}}).Validate(); err == nil {
		t.Error("invalid code accepted")
	}
}

// TestDecodeErrors checks that malformed input is rejected with a
// *rdf.ParseError at the right line and column.
func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		format, text string
		line, col    int
		msg          string
	}{
		{PrettyJSON, "{\"nodes\": [], \"edges\": [}", 1, 25, "expected a JSON value"},
		{PrettyJSON, "{\n  \"nodes\": [{\"id\": \"a\"}],\n  \"edges\": []\n}", 2, 13, `lacks the key "type"`},
		{PrettyJSON, "{\"nodes\": [{\"id\": \"a\", \"type\": 1}], \"edges\": []}", 1, 32, "must be a JSON string"},
		{PrettyJSON, "{\"nodes\": [], \"edges\": [], \"extra\": 1}", 1, 28, `unexpected key "extra"`},
		{PrettyJSON, "{\"nodes\": [], \"nodes\": [], \"edges\": []}", 1, 15, "duplicate key"},
		{PrettyJSON, "{\"nodes\": [{\"id\": \"a\\q\", \"type\": \"t\"}], \"edges\": []}", 1, 21, `invalid escape \q`},
		{PrettyJSON, "{\"nodes\": [{\"id\": \"\\ud800\", \"type\": \"t\"}], \"edges\": []}", 1, 20, "lone surrogate"},
		{PrettyJSON, "{\"nodes\": [], \"edges\": []} x", 1, 28, "extra data"},
		{PrettyJSON, "[]", 1, 1, "must be a JSON object"},
		{CompactJSON, `{"n":[["a"]],"e":[]}`, 1, 7, "must have 2 items"},
		{CompactJSON, `{"n":[],"e":[["a","b","c","d"]]}`, 1, 14, "must have 3 items"},
		{CompactJSON, `{"n":[],"e":[]`, 1, 15, "unexpected end of input"},
		{CompactJSON, "{\"n\":[[\"a\tb\",\"t\"]],\"e\":[]}", 1, 10, "control character"},
		{JSONL, "{\"k\":\"n\",\"id\":\"a\",\"t\":\"s\"}\n{\"k\":\"x\",\"id\":\"a\"}", 2, 6, `unknown record kind "x"`},
		{JSONL, "{\"k\":\"n\",\"id\":\"a\",\"t\":\"s\"}\n\n{\"k\":\"e\",\"s\":\"a\",\"r\":\"r\"}", 3, 1, `lacks the key "t"`},
		{JSONL, "{\"k\":\"n\",\"id\":\"a\",\"t\":\"s\",\"s\":\"x\"}", 1, 27, `unexpected key "s"`},
		{JSONL, "{\"id\":\"a\"}", 1, 1, `lacks the key "k"`},
		{JSONL, "[1]", 1, 1, "must be a JSON object"},
		{CSV, "kind,a,b\nN,a,s,\n", 1, 1, "unexpected CSV header"},
		{CSV, "kind,a,b,c\nN,a,s,\nX,a,b,c\n", 3, 1, `unknown CSV record kind "X"`},
		{CSV, "kind,a,b,c\nE,a,b\n", 2, 1, "has 3 fields"},
		{CSV, "kind,a,b,c\nN,\"a,s,\n", 2, 3, "unterminated quoted field"},
		{CSV, "kind,a,b,c\nN,a\"b,s,\n", 2, 4, `bare "`},
		{CSV, "kind,a,b,c\nN,\"a\"b,s,\n", 2, 6, "after a closing quote"},
		{CSV, "kind,a,b,c\nN,a,s,x\n", 2, 7, "non-empty fourth field"},
		{CSV, "kind,a,b,c\nN,a,s,\n\n", 3, 1, "has 1 fields"},
		{CSV, "", 1, 1, "missing CSV header"},
		{TypedEdges, "#graph-v2\nN|a|s", 1, 1, "missing graph format declaration"},
		{TypedEdges, "", 1, 1, "missing graph format declaration"},
		{TypedEdges, "#graph-v1\nN|a|s\nN|a\\x|s", 3, 4, `unknown escape \x`},
		{TypedEdges, "#graph-v1\nN|a|s\\", 2, 6, "trailing escape"},
		{TypedEdges, "#graph-v1\nN|a|s|t", 2, 1, "N record has 4 fields"},
		{TypedEdges, "#graph-v1\nE|a|b", 2, 1, "E record has 3 fields"},
		{TypedEdges, "#graph-v1\nX|a|b", 2, 1, `unknown record kind "X"`},
		{TypedEdges, "#graph-v1\nN|a|s\n\nN|b|s", 3, 1, `unknown record kind ""`},
		{TypedEdgesDict, "#graph-dict-v1\nREL|d=depends_on\nTYPE|s=service\nN|a|s\nN|b|x", 5, 5, `unknown type code "x"`},
		{TypedEdgesDict, "#graph-dict-v1\nREL|d=depends_on\nTYPE|s=service\nE|a|o|b", 4, 5, `unknown relation code "o"`},
		{TypedEdgesDict, "#graph-dict-v1\nREL|d=depends_on|d=owned_by\nTYPE", 2, 18, `duplicate code "d"`},
		{TypedEdgesDict, "#graph-dict-v1\nREL|d=x|o=x\nTYPE", 2, 9, `duplicate name "x"`},
		{TypedEdgesDict, "#graph-dict-v1\nREL|bad code=x\nTYPE", 2, 5, "invalid dictionary entry"},
		{TypedEdgesDict, "#graph-dict-v1\nTYPE|s=service\nREL", 2, 1, "expected the REL dictionary line"},
		{TypedEdgesDict, "#graph-dict-v1\nREL", 2, 4, "missing dictionary lines"},
		{TypedEdgesDict, "#graph-v1\nREL\nTYPE", 1, 1, "missing graph format declaration"},
		{TypedEdges, "#graph-v1\nN|é\xff|s", 2, 4, "invalid UTF-8"},
	}
	for _, tt := range tests {
		_, err := DecodeString(tt.format, tt.text, DecodeOptions{File: "in.txt"})
		var pe *rdf.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s %q: error %v is not a *rdf.ParseError", tt.format, tt.text, err)
			continue
		}
		if pe.File != "in.txt" || pe.Line != tt.line || pe.Column != tt.col || !strings.Contains(pe.Msg, tt.msg) {
			t.Errorf("%s %q: got %v, want in.txt:%d:%d: ...%s...", tt.format, tt.text, err, tt.line, tt.col, tt.msg)
		}
	}
}

func TestStrictDuplicates(t *testing.T) {
	dupNode := "#graph-v1\nN|a|s\nN|a|t"
	if _, err := DecodeString(TypedEdges, dupNode, DecodeOptions{}); err != nil {
		t.Errorf("non-strict decoding should keep duplicates like the reference: %v", err)
	}
	_, err := DecodeString(TypedEdges, dupNode, DecodeOptions{Strict: true})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(pe.Msg, "duplicate node") {
		t.Errorf("strict duplicate node: %v", err)
	}
	_, err = DecodeString(CSV, "kind,a,b,c\nN,a,s,\nE,a,r,a\nE,a,r,a\n", DecodeOptions{Strict: true})
	if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(pe.Msg, "duplicate edge") {
		t.Errorf("strict duplicate edge: %v", err)
	}
}

func TestLimits(t *testing.T) {
	text := "#graph-v1\nN|a|s\nN|b|s\nN|c|s"
	_, err := DecodeString(TypedEdges, text, DecodeOptions{Limits: rdf.Limits{MaxQuads: 2}})
	if !errors.Is(err, rdf.ErrLimit) && (err == nil || !strings.Contains(err.Error(), rdf.ErrLimit.Error())) {
		t.Errorf("record limit: %v", err)
	}
	_, err = DecodeString(TypedEdges, text, DecodeOptions{Limits: rdf.Limits{MaxBytes: 10}})
	if err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
		t.Errorf("byte limit: %v", err)
	}
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	_, err = DecodeString(CompactJSON, deep, DecodeOptions{})
	if err == nil || !strings.Contains(err.Error(), "nesting deeper") {
		t.Errorf("depth limit: %v", err)
	}
	_, err = DecodeString(TypedEdges, "#graph-v1\nN|"+strings.Repeat("x", 100)+"|s", DecodeOptions{Limits: rdf.Limits{MaxTermLength: 50}})
	if err == nil || !strings.Contains(err.Error(), "bytes in one field") {
		t.Errorf("term limit: %v", err)
	}
	if _, err := Generate(maxServices+1, 0, 1); err == nil {
		t.Error("Generate should refuse absurd sizes")
	}
}

func TestEncodeRejectsInvalidUTF8(t *testing.T) {
	g := Graph{Nodes: []Node{{"a\xff", "s"}}}
	for _, f := range Formats() {
		if err := f.Encode(&strings.Builder{}, g); err == nil {
			t.Errorf("%s: invalid UTF-8 accepted", f.Name)
		}
	}
}

func TestQueriesOnHandGraph(t *testing.T) {
	// A hand-checked graph: x -> y -> z -> w (depends_on), q -> z, z owned by t.
	g := Graph{
		Nodes: []Node{{"x", Service}, {"y", Service}, {"z", Service}, {"w", Database}, {"q", Team}, {"t", Team}},
		Edges: []Edge{{"x", DependsOn, "y"}, {"y", DependsOn, "z"}, {"z", DependsOn, "w"}, {"q", DependsOn, "z"},
			{"z", OwnedBy, "t"}, {"z", OwnedBy, "t"}, {"w", DependsOn, "x"}},
	}
	if got := ReachableDependencies(g.Edges, "x", 2); !reflect.DeepEqual(got, []string{"y", "z"}) {
		t.Errorf("reachable within 2 = %v", got)
	}
	if got := ReachableDependencies(g.Edges, "x", 10); !reflect.DeepEqual(got, []string{"w", "y", "z"}) {
		t.Errorf("reachable within 10 = %v (start excluded even on a cycle)", got)
	}
	// q is a team, not a service: it propagates but is not reported.
	if got := AffectedServices(g.Nodes, g.Edges, "w"); !reflect.DeepEqual(got, []string{"x", "y", "z"}) {
		t.Errorf("affected = %v", got)
	}
	if got := OwnersOf([]string{"z", "x"}, g.Edges); !reflect.DeepEqual(got, map[string][]string{"z": {"t"}, "x": {}}) {
		t.Errorf("owners = %v", got)
	}
}

// TestDictionaryManyCodes round-trips a graph with more relations and types
// than a record has fields: its REL and TYPE lines have 100 entries each
// (a nanopublication collection has 70 relations; the decoder once refused
// dictionary lines of more than 64 fields).
func TestDictionaryManyCodes(t *testing.T) {
	var g Graph
	for i := range 100 {
		id := fmt.Sprintf("n%03d", i)
		g.Nodes = append(g.Nodes, Node{id, fmt.Sprintf("type-%03d", i)})
		if i > 0 {
			g.Edges = append(g.Edges, Edge{"n000", fmt.Sprintf("rel-%03d", i), id})
		}
	}
	text, err := EncodeString(TypedEdgesDict, g)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := DecodeString(TypedEdgesDict, text, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(dec, g) {
		t.Fatal("typed_edges_dict round trip with 99 relations and 100 types differs")
	}
	if _, err := DecodeString(TypedEdges, "#graph-v1\nN|a|t|"+strings.Repeat("x|", 70), DecodeOptions{}); err == nil {
		t.Fatal("a typed_edges record of 73 fields was accepted")
	}
}
