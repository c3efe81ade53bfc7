//go:build linux

package sparql_test

// Integration test against a real triple store (issue 12): a private
// Virtuoso (Debian's virtuoso-opensource 7.2) started on loopback holds the
// graphs of ../shared/data/examples in named graphs; CONSTRUCT and DESCRIBE
// queries go through package sparql (GET and POST-form; N-Triples, Turtle,
// JSON-LD) and through the server's POST /v1/serialize, and every answer is
// checked against the same subgraph computed locally from the file with our
// own parsers: the file is the oracle, not the code under test. Where
// Virtuoso is known to rewrite literals, the comparison allows exactly the
// listed rewrites for that answer syntax and reports each use. POST with an
// application/sparql-query body is a known failure of Virtuoso 7.2
// (knownFailures). Time limits and a refused query must give clean errors.
//
// Without virtuoso-t the test skips, unless ISOLDA_REQUIRE_VIRTUOSO=1 (CI,
// after .ci/virtuoso.sh) makes that a failure. It is Linux-only (the
// process handling uses Pdeathsig and process groups) and skipped by -short
// unless ISOLDA_REQUIRE_VIRTUOSO=1.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/server"
	"github.com/isolda/isolda/sparql"
)

// focus names, per example file, the resource of the one-hop CONSTRUCT and
// the resource of the DESCRIBE.
var focus = map[string][2]string{
	"wikidata-L691820-lexeme.ttl": {
		"http://www.wikidata.org/entity/L691820",
		"http://www.wikidata.org/entity/L691820-S1",
	},
	"lod-datagovuk-reference-intervals.ttl": {
		"http://reference.data.gov.uk/def/intervals/CalendarInterval",
		"http://reference.data.gov.uk/def/intervals/one-day",
	},
	"html-schemaorg-songkick-years-and-years-tour-events.html": {
		"http://www.songkick.com/artists/3976856-years-and-years?utm_medium=organic&utm_source=microformat",
		"http://www.songkick.com/artists/8335223-shamir?utm_medium=organic&utm_source=microformat",
	},
}

// example is one file of data/examples loaded into the store.
type example struct {
	name  string
	graph string       // the named graph in Virtuoso
	local *rdf.Dataset // the file read by rdfio: the oracle
	via   string       // how it was loaded
}

// vquery is a query and the subgraph it must return.
type vquery struct {
	ex     *example
	kind   string
	text   string
	oracle *rdf.Dataset
}

func (q vquery) String() string { return q.ex.name + " " + q.kind }

// acceptCase is an Accept header, the media type Virtuoso must answer with
// and the rewrites of literals its writer for that type is known to make.
type acceptCase struct {
	name     string
	header   string
	wantType string
	allowed  []rewrite
}

var acceptCases = []acceptCase{
	{"n-triples", "application/n-triples", "application/n-triples", []rewrite{rewriteNumber, rewriteDouble, rewriteDuration}},
	{"turtle", "text/turtle", "text/turtle", []rewrite{rewriteTurtleNumbers}},
	{"json-ld", "application/ld+json", "application/ld+json", []rewrite{rewriteJSONValues}},
	// The client's own Accept, which prefers N-Triples.
	{"default", sparql.Accept, "application/n-triples", []rewrite{rewriteNumber, rewriteDouble, rewriteDuration}},
}

// TestVirtuoso is the integration test of issue 12.
func TestVirtuoso(t *testing.T) {
	if testing.Short() && os.Getenv(requireVirtuosoEnv) != "1" {
		t.Skip("integration test with a Virtuoso process; not in -short mode")
	}
	begin := time.Now()
	v := startVirtuoso(t)
	examples := loadExamples(t, v)
	if len(examples) == 0 {
		t.Fatal("no example graph could be loaded")
	}
	queries := buildQueries(t, examples)
	direct := make(map[string]*rdf.Dataset) // GET with the default Accept, per query
	t.Run("client", func(t *testing.T) { testClient(t, v, queries, direct) })
	t.Run("server", func(t *testing.T) { testServer(t, v, queries, direct) })
	t.Run("post-direct", func(t *testing.T) { testPostDirect(t, v, queries[0]) })
	t.Run("errors", func(t *testing.T) { testErrors(t, v, examples) })
	t.Logf("virtuoso integration test took %s (Virtuoso start and load included)", time.Since(begin).Round(time.Millisecond))
	t.Logf("virtuoso: integration test took %s", time.Since(begin).Round(time.Millisecond))
}

// loadExamples loads every RDF file of data/examples into its own named
// graph: Turtle and N-Triples with Virtuoso's own parser (DB.DBA.TTLP, so
// that the store and the oracle come from two independent parsers), other
// syntaxes (HTML with JSON-LD, JSON-LD, RDF/XML, ...) converted to
// N-Triples with rdfio first. It reports what could not be loaded.
func loadExamples(t *testing.T, v *virtuoso) []*example {
	dir := shared.MustPath(t, "data", "examples")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []*example
	var notLoaded []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := e.Name()
		path := filepath.Join(dir, name)
		format, ok := rdfio.FormatFromName(name)
		if !ok {
			notLoaded = append(notLoaded, name+": not an RDF file")
			continue
		}
		local, err := rdfio.ReadFile(path, nil, rdfio.Options{})
		if err != nil {
			t.Errorf("%s: the local parse fails: %v", name, err)
			notLoaded = append(notLoaded, name+": "+err.Error())
			continue
		}
		ex := &example{name: name, graph: "urn:isolda:examples:" + url.PathEscape(name), local: local}
		copyPath := filepath.Join(v.dir, "load-"+name)
		switch format {
		case rdfio.Turtle, rdfio.NTriples:
			ex.via = "Virtuoso's Turtle parser (DB.DBA.TTLP)"
			err = copyFile(path, copyPath)
		default:
			ex.via = "rdfio " + string(format) + " → N-Triples, then DB.DBA.TTLP"
			copyPath += ".nt"
			err = writeNTriples(local, copyPath)
		}
		if err == nil {
			err = v.loadTurtle(copyPath, rdfio.FileBase(path), ex.graph)
		}
		if err != nil {
			t.Errorf("%s: loading into Virtuoso: %v", name, err)
			notLoaded = append(notLoaded, name+": "+err.Error())
			continue
		}
		out = append(out, ex)
	}
	for _, ex := range out {
		t.Logf("loaded %s into <%s>: %d triples locally, via %s", ex.name, ex.graph, ex.local.Len(), ex.via)
		t.Logf("virtuoso-load: %s: %d triples into <%s> via %s", ex.name, ex.local.Len(), ex.graph, ex.via)
	}
	for _, s := range notLoaded {
		t.Logf("not loaded: %s", s)
		t.Logf("virtuoso-load: not loaded: %s", s)
	}
	return out
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

func writeNTriples(d *rdf.Dataset, path string) error {
	var b bytes.Buffer
	if err := rdfio.Write(&b, d, "ntriples", rdfio.WriteOptions{}); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// buildQueries makes three queries per graph, each with its subgraph
// computed locally: the whole graph, the one-hop neighbourhood of a
// resource (outgoing and incoming triples), and a DESCRIBE of another
// resource (Virtuoso's default DESCRIBE returns the triples with the
// resource as subject or object, without following blank nodes).
func buildQueries(t *testing.T, examples []*example) []vquery {
	var qs []vquery
	for _, ex := range examples {
		qs = append(qs, vquery{ex: ex, kind: "whole graph", oracle: ex.local,
			text: fmt.Sprintf("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <%s> { ?s ?p ?o } }", ex.graph)})
		f, ok := focus[ex.name]
		if !ok {
			t.Logf("%s: no focus resources listed; only the whole graph is queried", ex.name)
			continue
		}
		hop, desc := rdf.NewIRI(f[0]), rdf.NewIRI(f[1])
		qs = append(qs,
			vquery{ex: ex, kind: "one hop around <" + f[0] + ">", oracle: neighbourhood(ex.local, hop),
				text: fmt.Sprintf("CONSTRUCT { <%[2]s> ?p ?o . ?s ?q <%[2]s> }\nWHERE { GRAPH <%[1]s> { { <%[2]s> ?p ?o } UNION { ?s ?q <%[2]s> } } }",
					ex.graph, f[0])},
			vquery{ex: ex, kind: "DESCRIBE <" + f[1] + ">", oracle: neighbourhood(ex.local, desc),
				text: fmt.Sprintf("DESCRIBE <%s> FROM <%s>", f[1], ex.graph)})
	}
	for _, q := range qs {
		if q.oracle.Len() == 0 {
			t.Fatalf("%s: the local subgraph is empty; the focus table is wrong", q)
		}
	}
	return qs
}

// testClient runs every query with every method and Accept header and
// compares the answer with the local subgraph.
func testClient(t *testing.T, v *virtuoso, queries []vquery, direct map[string]*rdf.Dataset) {
	type tally struct{ total, exact, rewritten, failed int }
	tallies := make(map[string]*tally)
	var deviations []string
	// POST with an application/sparql-query body is not in the matrix:
	// Virtuoso 7.2 never answers it (testPostDirect).
	methods := []sparql.Method{sparql.Get, sparql.PostForm}
	for _, ac := range acceptCases {
		tl := &tally{}
		tallies[ac.name] = tl
		tr := &acceptTransport{accept: ac.header, base: http.DefaultTransport}
		for _, q := range queries {
			var first *comparison
			var firstGot *rdf.Dataset
			for _, m := range methods {
				tl.total++
				c := &sparql.Client{HTTP: &http.Client{Transport: tr}, Method: m, Timeout: 20 * time.Second}
				got, err := c.Construct(context.Background(), v.Endpoint, q.text)
				if err != nil {
					tl.failed++
					t.Errorf("%s, %s, Accept %s: %v", q, m, ac.name, err)
					continue
				}
				if mt, _, _ := mime.ParseMediaType(tr.lastContentType()); mt != ac.wantType {
					t.Errorf("%s, %s, Accept %s: answered %q, want %s", q, m, ac.name, tr.lastContentType(), ac.wantType)
				}
				cmp, err := compareGraphs(q.oracle, got, ac.allowed)
				if err != nil {
					tl.failed++
					t.Errorf("%s, %s, Accept %s: %v", q, m, ac.name, err)
					continue
				}
				if ac.name == "default" && m == sparql.Get {
					direct[q.String()] = got
				}
				if cmp.exact {
					tl.exact++
				} else {
					tl.rewritten++
				}
				if first == nil {
					first, firstGot = &cmp, got
					if !cmp.exact {
						deviations = append(deviations, fmt.Sprintf("%-9s %s: %d triples; rewrites %s; %d triples only in the oracle, %d only fetched",
							ac.name, q, q.oracle.Len(), strings.Join(cmp.needed, "+"), cmp.missing, cmp.extra))
					}
				} else if same, err := canon.Isomorphic(firstGot, got); err != nil || !same ||
					first.exact != cmp.exact || !slices.Equal(first.needed, cmp.needed) {
					t.Errorf("%s, Accept %s: %s gives another graph than %s (%v)", q, ac.name, m, methods[0], err)
				}
			}
		}
	}
	t.Logf("%d queries (%d graphs × whole, one-hop, DESCRIBE), each with GET and POST-form", len(queries), len(queries)/3)
	t.Logf("known Virtuoso 7.2 rewrites of literals (the oracle and the answer are compared after them only where listed):")
	for _, rw := range []rewrite{rewriteNumber, rewriteDouble, rewriteDuration, rewriteTurtleNumbers, rewriteJSONValues} {
		t.Logf("  %-13s %s", rw.name, rw.reason)
	}
	for _, ac := range acceptCases {
		t.Logf("  Accept %-9s allows %s", ac.name, rewriteNames(ac.allowed))
	}
	t.Logf("answers that needed a known rewrite (one line per query and Accept; both methods agree):")
	for _, d := range deviations {
		t.Logf("  %s", d)
	}
	for _, ac := range acceptCases {
		tl := tallies[ac.name]
		line := fmt.Sprintf("virtuoso-sparql %s: %d/%d passed (%d isomorphic as fetched, %d after known Virtuoso rewrites, %d failed)",
			ac.name, tl.exact+tl.rewritten, tl.total, tl.exact, tl.rewritten, tl.failed)
		t.Log(line)
	}
}

// testServer sends each query through POST /v1/serialize, as ISOLDA (GET)
// and as Turtle (POST-form), and checks the text decodes to the graph the
// endpoint gave, that the hash is rdf/canon's hash of that graph, and that
// it is the hash of the local subgraph whenever the N-Triples answer is
// exact.
func testServer(t *testing.T, v *virtuoso, queries []vquery, direct map[string]*rdf.Dataset) {
	h := server.New(server.Config{AllowSPARQL: true, SPARQLEndpoints: []string{v.Endpoint}, Timeout: 30 * time.Second})
	total, passed, oracleHash, exactAnswers := 0, 0, 0, 0
	for _, q := range queries {
		fetched := direct[q.String()]
		if fetched == nil {
			t.Errorf("%s: no direct answer to compare with (see the client test)", q)
			continue
		}
		wantHash, err := canon.Hash(fetched)
		if err != nil {
			t.Fatal(err)
		}
		localHash, err := canon.Hash(q.oracle)
		if err != nil {
			t.Fatal(err)
		}
		exact, err := canon.Isomorphic(q.oracle, fetched)
		if err != nil {
			t.Fatal(err)
		}
		if exact {
			exactAnswers++
		}
		for _, c := range []struct{ format, method string }{{"isolda", "get"}, {"turtle", "form"}} {
			total++
			what := fmt.Sprintf("%s as %s (%s)", q, c.format, c.method)
			resp, err := serialize(h, map[string]any{
				"graph":  map[string]string{"endpoint": v.Endpoint, "query": q.text, "method": c.method},
				"format": c.format,
			})
			if err != nil {
				t.Errorf("%s: %v", what, err)
				continue
			}
			var decoded *rdf.Dataset
			if c.format == "isolda" {
				decoded, err = isolda.Decode(strings.NewReader(resp.Text))
			} else {
				decoded, err = rdfio.Read(strings.NewReader(resp.Text), rdfio.Options{Format: rdfio.Turtle})
			}
			if err != nil {
				t.Errorf("%s: the text does not decode: %v", what, err)
				continue
			}
			ok := true
			if resp.Quads != q.oracle.Len() {
				t.Errorf("%s: %d quads, the local subgraph has %d", what, resp.Quads, q.oracle.Len())
				ok = false
			}
			if iso, err := canon.Isomorphic(fetched, decoded); err != nil || !iso {
				t.Errorf("%s: the text decodes to another graph than the endpoint's (%v): %s", what, err, diffSample(fetched, decoded, 4))
				ok = false
			}
			if _, err := compareGraphs(q.oracle, decoded, acceptCases[0].allowed); err != nil {
				t.Errorf("%s: against the local subgraph: %v", what, err)
				ok = false
			}
			if resp.GraphHash != wantHash {
				t.Errorf("%s: graph_hash %s, rdf/canon gives %s for the endpoint's answer", what, resp.GraphHash, wantHash)
				ok = false
			}
			if exact && resp.GraphHash != localHash {
				t.Errorf("%s: graph_hash %s, the local subgraph's is %s", what, resp.GraphHash, localHash)
				ok = false
			}
			if exact && resp.GraphHash == localHash {
				oracleHash++
			}
			if ok {
				passed++
			}
		}
	}
	line := fmt.Sprintf("virtuoso-server serialize: %d/%d passed (isolda and turtle; graph_hash = hash of the local subgraph in %d, "+
		"the other %d are answers with known Virtuoso rewrites, hash = rdf/canon hash of the answer)",
		passed, total, oracleHash, total-2*exactAnswers)
	t.Log(line)
}

// knownFailures are the protocol cases Virtuoso 7.2 does not pass, with the
// reason; testPostDirect checks the first still fails the way described.
var knownFailures = []struct{ what, reason string }{
	{"POST with an application/sparql-query body (sparql.Post)",
		"Virtuoso 7.2 (07.20.3229) never answers it (openlink/virtuoso-opensource#842, open); the client " +
			"ends it at its time limit with a clean error. POST-form (sparql.PostForm) works and is tested instead."},
}

// testPostDirect sends one query as an application/sparql-query body. With
// Virtuoso 7.2 it gets no answer (a known failure); the test checks the
// client gives up at its time limit with a clean error, and checks the graph
// should a later Virtuoso answer.
func testPostDirect(t *testing.T, v *virtuoso, q vquery) {
	for _, f := range knownFailures {
		t.Logf("known failure: %s: %s", f.what, f.reason)
		t.Logf("virtuoso known failure: %s: %s", f.what, f.reason)
	}
	const limit = 2 * time.Second
	c := &sparql.Client{Method: sparql.Post, Timeout: limit}
	start := time.Now()
	got, err := c.Construct(context.Background(), v.Endpoint, q.text)
	took := time.Since(start)
	switch {
	case err == nil:
		if _, cerr := compareGraphs(q.oracle, got, acceptCases[0].allowed); cerr != nil {
			t.Errorf("POST direct, %s: %v", q, cerr)
		}
		t.Logf("POST direct now answers (%d triples): remove it from knownFailures", got.Len())
	case errors.Is(err, context.DeadlineExceeded):
		t.Logf("POST direct, %s: known failure reproduced: %v", q, err)
	default:
		t.Errorf("POST direct, %s: %v after %s; want an answer or a clean time-out", q, err, took)
	}
}

// apiError is the server's error body.
type apiError struct {
	Error string `json:"error"`
}

// serialize posts a request to /v1/serialize and decodes a 200 answer.
func serialize(h http.Handler, body any) (*server.SerializeResponse, error) {
	status, data, err := post(h, "/v1/serialize", body)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", status, data)
	}
	var resp server.SerializeResponse
	if err := json.Unmarshal(data, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

func post(h http.Handler, path string, body any) (int, []byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	data, err := io.ReadAll(w.Result().Body)
	return w.Code, data, err
}

// testErrors checks time limits and a refused query end in clean errors,
// promptly.
func testErrors(t *testing.T, v *virtuoso, examples []*example) {
	largest := examples[0]
	for _, ex := range examples {
		if ex.local.Len() > largest.local.Len() {
			largest = ex
		}
	}
	// About n² rows of the largest graph through a regular expression:
	// seconds of work for Virtuoso, under its cost limit.
	slow := fmt.Sprintf(`CONSTRUCT { ?a <urn:isolda:test:p> ?c } WHERE { GRAPH <%s> { ?a ?p ?b . ?c ?q ?d }
  FILTER(REGEX(CONCAT(STR(?b), STR(?d)), "zzz(a|b)*q")) }`, largest.graph)
	// n³ rows: Virtuoso's cost estimate refuses it before running it.
	refused := fmt.Sprintf(`CONSTRUCT { ?a <urn:isolda:test:p> ?e } WHERE { GRAPH <%s> { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f } }`, largest.graph)
	whole := fmt.Sprintf("CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <%s> { ?s ?p ?o } }", largest.graph)
	passed, total := 0, 0
	check := func(ok bool) {
		total++
		if ok {
			passed++
		}
	}
	const limit = 200 * time.Millisecond

	t.Run("short client timeout", func(t *testing.T) {
		c := &sparql.Client{Timeout: time.Nanosecond}
		start := time.Now()
		_, err := c.Construct(context.Background(), v.Endpoint, whole)
		ok := err != nil && errors.Is(err, context.DeadlineExceeded)
		if !ok {
			t.Errorf("1ns timeout: %v after %s; want a deadline error", err, time.Since(start))
		} else {
			t.Logf("1ns timeout: %v", err)
		}
		check(ok)
	})

	t.Run("slow query", func(t *testing.T) {
		c := &sparql.Client{Timeout: limit}
		start := time.Now()
		_, err := c.Construct(context.Background(), v.Endpoint, slow)
		took := time.Since(start)
		ok := err != nil && errors.Is(err, context.DeadlineExceeded) && strings.Contains(err.Error(), v.Endpoint)
		if !ok {
			t.Errorf("slow query with a %s timeout: %v after %s; want a deadline error naming the endpoint", limit, err, took)
		} else {
			t.Logf("slow query, %s timeout: %v (after %s)", limit, err, took.Round(time.Millisecond))
		}
		check(ok)
		// The query is really slow: without the limit it takes longer.
		c = &sparql.Client{Timeout: 20 * time.Second}
		start = time.Now()
		d, err := c.Construct(context.Background(), v.Endpoint, slow)
		took = time.Since(start)
		ok = err == nil && took > 2*limit
		if !ok {
			t.Errorf("slow query without a tight limit: %v, %s; want an answer after more than %s", err, took, 2*limit)
		} else {
			t.Logf("slow query without a tight limit: %d triples after %s", d.Len(), took.Round(time.Millisecond))
		}
		check(ok)
	})

	t.Run("server time limit", func(t *testing.T) {
		h := server.New(server.Config{AllowSPARQL: true, SPARQLEndpoints: []string{v.Endpoint}, Timeout: limit})
		start := time.Now()
		status, data, err := post(h, "/v1/serialize", map[string]any{
			"graph": map[string]string{"endpoint": v.Endpoint, "query": slow}, "format": "isolda"})
		took := time.Since(start)
		var e apiError
		jerr := json.Unmarshal(data, &e)
		ok := err == nil && jerr == nil && (status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout) &&
			e.Error != ""
		if !ok {
			t.Errorf("server with a %s limit: status %d, %s (%v, %v) after %s; want 503 or 504 with a JSON error",
				limit, status, data, err, jerr, took)
		} else {
			t.Logf("server with a %s limit: %d %q after %s", limit, status, e.Error, took.Round(time.Millisecond))
		}
		check(ok)
	})

	t.Run("refused query", func(t *testing.T) {
		c := &sparql.Client{Timeout: 20 * time.Second}
		_, err := c.Construct(context.Background(), v.Endpoint, refused)
		var he *sparql.HTTPError
		ok := errors.As(err, &he) && he.Status == http.StatusInternalServerError &&
			strings.Contains(he.Snippet, "Virtuoso 42000")
		if !ok {
			t.Errorf("query over the cost limit: %v; want an *HTTPError 500 quoting Virtuoso's error", err)
		} else {
			t.Logf("query over the cost limit: %v", err)
		}
		check(ok)
	})

	line := fmt.Sprintf("virtuoso-errors: %d/%d passed (1ns client timeout, slow query under a %s client timeout and "+
		"its control run, server time limit, query refused by Virtuoso's cost limit)", passed, total, limit)
	t.Log(line)
}

// TestVirtuosoRewrites checks the comparison itself, without Virtuoso: each
// rewrite admits the literal pairs observed in Virtuoso's answers (taken
// from its output, not from our code) for its syntax only, and nothing
// else.
func TestVirtuosoRewrites(t *testing.T) {
	const p = "http://example.org/p"
	lit := func(v, dt string) rdf.Term { return rdf.NewLiteral(v, dt) }
	nt, ttl, jsonld := acceptCases[0].allowed, acceptCases[1].allowed, acceptCases[2].allowed
	cases := []struct {
		name      string
		allowed   []rewrite
		want, got rdf.Term
		ok, exact bool
	}{
		{"same literal", nt, rdf.NewLangString("April", "en"), rdf.NewLangString("April", "en"), true, true},
		{"nt: big integer as decimal", nt, lit("2224372531", rdf.XSDInteger), lit("2224372531", rdf.XSDDecimal), true, false},
		{"nt: double to 6 digits", nt, lit("5.1535879E1", rdf.XSDDouble), lit("51.5359", rdf.XSDDouble), true, false},
		{"nt: double, wrong digits", nt, lit("5.1535879E1", rdf.XSDDouble), lit("51.5358", rdf.XSDDouble), false, false},
		{"nt: duration in seconds", nt, lit("P1D", rdf.XSD+"duration"), lit("86400.0", rdf.XSD+"duration"), true, false},
		{"nt: language tag dropped", nt, rdf.NewLangString("April", "en"), rdf.NewString("April"), false, false},
		{"nt: other integer", nt, lit("7", rdf.XSDInteger), lit("8", rdf.XSDInteger), false, false},
		{"turtle: integral decimal", ttl, lit("1", rdf.XSDDecimal), lit("1", rdf.XSDInteger), true, false},
		{"turtle: double as decimal", ttl, lit("4.88783356E1", rdf.XSDDouble), lit("48.878335599999999772", rdf.XSDDecimal), true, false},
		{"turtle: duration kept", ttl, lit("P1D", rdf.XSD+"duration"), lit("86400.0", rdf.XSD+"duration"), false, false},
		{"turtle: language tag dropped", ttl, rdf.NewLangString("April", "en"), rdf.NewString("April"), false, false},
		{"json-ld: language tag dropped", jsonld, rdf.NewLangString("April", "en"), rdf.NewString("April"), true, false},
		{"json-ld: datatype dropped", jsonld, lit("2015-10-31", "http://schema.org/Date"), rdf.NewString("2015-10-31"), true, false},
		{"json-ld: duration as number", jsonld, lit("P1D", rdf.XSD+"duration"), lit("86400", rdf.XSDInteger), true, false},
		{"json-ld: other text", jsonld, rdf.NewLangString("April", "en"), rdf.NewString("Avril"), false, false},
		{"json-ld: number for text", jsonld, rdf.NewString("6"), lit("6", rdf.XSDInteger), false, false},
		{"json-ld: IRI for literal", jsonld, rdf.NewString("http://x/"), rdf.NewIRI("http://x/"), false, false},
	}
	for _, c := range cases {
		a, b := rdf.NewDataset(), rdf.NewDataset()
		// Blank nodes with other labels on each side, as from a store.
		a.Add(rdf.Quad{S: rdf.NewBlank("x"), P: rdf.NewIRI(p), O: c.want})
		b.Add(rdf.Quad{S: rdf.NewBlank("b10033"), P: rdf.NewIRI(p), O: c.got})
		cmp, err := compareGraphs(a, b, c.allowed)
		if (err == nil) != c.ok || (err == nil && cmp.exact != c.exact) {
			t.Errorf("%s: exact %v, error %v; want ok %v, exact %v", c.name, cmp.exact, err, c.ok, c.exact)
		}
		if err == nil && !c.exact && len(cmp.needed) != 1 {
			t.Errorf("%s: needed rewrites %v, want one", c.name, cmp.needed)
		}
	}
}
