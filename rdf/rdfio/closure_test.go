package rdfio

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/internal/testkit/w3c"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/internal/grammar"
)

// The closure property: whatever a reader of one syntax keeps, the writer of
// any syntax writes so that its reader reads it back, the same graph (by
// isomorphism, rdf/canon) with language tags in the case they had. It is
// checked for every pair (the syntax the data was read from, the syntax it
// is written in) on the W3C conformance inputs and results, on the data in
// ../shared/data and on random hostile graphs.

var closureGraphs = flag.Int("closure.graphs", 500, "number of random hostile graphs TestClosureHostile checks (10000 for the full run)")

// closureSyntax is one syntax of the closure test: the name it is reported
// under, the name Write takes with the options it gets, and the format Read
// takes. prefixes are the prefix terms of the JSON-LD context it compacts
// with, if any.
type closureSyntax struct {
	name     string
	write    string
	opts     WriteOptions
	read     Format
	prefixes []string
}

var closureSyntaxes = []closureSyntax{
	{name: "ntriples", write: "ntriples", read: NTriples}, {name: "nquads", write: "nquads", read: NQuads},
	{name: "turtle", write: "turtle", read: Turtle}, {name: "trig", write: "trig", read: TriG},
	{name: "rdfxml", write: "rdfxml", read: RDFXML}, {name: "jsonld", write: "jsonld", read: JSONLD},
	{name: "jsonld-compact", write: "jsonld-compact", read: JSONLD},
	// Compacted with a context that gives the values other meanings.
	{name: "jsonld-context", write: "jsonld-compact", opts: WriteOptions{Context: hostileContext}, read: JSONLD,
		prefixes: []string{"ex", "ns", "xsd", "schema", "e"}},
}

// hostileContext is a JSON-LD context to compact with that gives the
// values of the hostile graphs other meanings than their own: a default
// language and direction (which plain strings would take), type coercions
// to IRIs, vocabulary IRIs and a datatype, a language on a term, a list and
// a set container, keyword aliases, @vocab, and prefixes named like IRI
// schemes of the W3C data ("ex", "e"), one marked with @prefix.
var hostileContext = map[string]any{
	"@vocab":     "http://example.org/",
	"@language":  "fr",
	"@direction": "ltr",
	"type":       "@type",
	"id":         "@id",
	"ex":         "http://example.org/",
	"ns":         "http://example.org/ns#",
	"xsd":        "http://www.w3.org/2001/XMLSchema#",
	"schema":     "http://schema.org/",
	"e":          map[string]any{"@id": "http://example.org/é", "@prefix": true},
	"p":          map[string]any{"@id": "http://example.org/p", "@type": "@id"},
	"q":          map[string]any{"@id": "http://example.org/ns#q", "@type": "http://www.w3.org/2001/XMLSchema#integer"},
	"label":      map[string]any{"@id": "http://www.w3.org/2000/01/rdf-schema#label", "@language": "en"},
	"target":     map[string]any{"@id": "http://schema.org/target", "@type": "@vocab"},
	"list":       map[string]any{"@id": "http://example.org/p/1", "@container": "@list"},
	"set":        map[string]any{"@id": "http://example.org/é", "@container": "@set"},
	"plain":      map[string]any{"@id": "http://example.org/p.", "@language": nil, "@direction": nil},
}

// cannotHold returns why syntax s cannot hold d, or "" when it can. These
// are the limits of the syntaxes, not of the writers: a writer must write
// every dataset its syntax can hold.
func cannotHold(s closureSyntax, d *rdf.Dataset) string {
	var named, triple, relative, confused bool
	var xmlBad string
	for _, q := range d.Quads() {
		if !q.G.IsZero() {
			named = true
		}
		for _, t := range []rdf.Term{q.S, q.P, q.O, q.G} {
			switch {
			case t.Kind == rdf.TripleKind:
				triple = true
			case t.Kind == rdf.IRIKind && !rdf.IsAbsoluteIRI(t.Value),
				t.Kind == rdf.LiteralKind && t.Datatype != "" && !rdf.IsAbsoluteIRI(t.Datatype):
				relative = true
			}
			if s.prefixes != nil && confusedWithPrefix(t, s.prefixes) {
				confused = true
			}
		}
		if s.read == RDFXML && xmlBad == "" {
			xmlBad = notXML(q)
		}
	}
	switch {
	case named && (s.read == NTriples || s.read == Turtle || s.read == RDFXML):
		return "named graphs"
	case triple && s.read == JSONLD:
		return "RDF 1.2 triple terms (JSON-LD 1.1 has none)"
	case relative && s.read == JSONLD:
		return relativeIRIs
	case confused:
		return "an IRI whose scheme is a prefix of the context (JSON-LD reads it as a compact IRI)"
	case xmlBad != "":
		return xmlBad
	}
	return ""
}

// confusedWithPrefix reports whether t is an IRI, or a literal whose
// datatype is an IRI, that a JSON-LD context with these prefix terms
// cannot write: its scheme is one of them, not followed by "//", so
// JSON-LD reads it as a compact IRI (JSON-LD 1.1 API, IRI Expansion).
func confusedWithPrefix(t rdf.Term, prefixes []string) bool {
	iri := t.Value
	if t.Kind == rdf.LiteralKind {
		iri = t.Datatype
	} else if t.Kind != rdf.IRIKind {
		return false
	}
	scheme, rest, ok := strings.Cut(iri, ":")
	return ok && !strings.HasPrefix(rest, "//") && slices.Contains(prefixes, scheme)
}

// relativeIRIs is why JSON-LD cannot hold relative IRIs.
const relativeIRIs = "relative IRIs (JSON-LD to RDF drops them)"

// notXML says why RDF/XML cannot hold the quad q, or "".
func notXML(q rdf.Quad) string {
	var terms []rdf.Term
	var add func(t rdf.Term)
	add = func(t rdf.Term) {
		if t.Kind == rdf.TripleKind {
			s, p, o, err := t.Triple()
			if err != nil {
				panic(err)
			}
			add(s)
			add(p)
			add(o)
			if !splittable(p.Value) {
				terms = append(terms, rdf.NewIRI("\x00")) // flags the predicate below
			}
			return
		}
		terms = append(terms, t)
	}
	add(q.S)
	add(q.O)
	if !splittable(q.P.Value) {
		return "a predicate IRI that does not end in an XML name"
	}
	for _, t := range terms {
		for _, s := range []string{t.Value, t.Datatype, t.Lang} {
			for _, r := range s {
				if !(r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000) {
					return "a character XML 1.0 cannot represent"
				}
			}
		}
	}
	return ""
}

// splittable reports whether an RDF/XML writer can write a property with
// the IRI p: its longest suffix that is an XML NCName (XML 1.0 fifth
// edition) and that encoding/xml, which the reader uses, reads as a name
// follows a non-empty namespace and is not a syntax name of RDF/XML.
func splittable(p string) bool {
	i := len(p)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(p[:i])
		// XML's NameChar is Turtle's PN_CHARS and '.', NameStartChar its
		// PN_CHARS_U.
		if !(grammar.IsPNChars(r) || r == '.') {
			break
		}
		i -= size
	}
	for ; i < len(p); i++ {
		if r, _ := utf8.DecodeRuneInString(p[i:]); !utf8.RuneStart(p[i]) || !grammar.IsPNCharsU(r) {
			continue
		}
		if i == 0 || !readsAsXMLName(p[i:]) {
			continue
		}
		if p[:i] == rdf.RDFNS {
			switch p[i:] {
			case "RDF", "ID", "about", "parseType", "resource", "nodeID", "datatype", "li", "Description",
				"aboutEach", "aboutEachPrefix", "bagID":
				return false
			}
		}
		return true
	}
	return false
}

// readsAsXMLName reports whether encoding/xml reads an element named
// local.
func readsAsXMLName(local string) bool {
	tok, err := xml.NewDecoder(strings.NewReader("<" + local + "/>")).RawToken()
	se, ok := tok.(xml.StartElement)
	return err == nil && ok && se.Name.Space == "" && se.Name.Local == local
}

// roundTrip writes d in syntax s, reads it back and returns "" when the
// result is isomorphic to d with every language tag as written, else what
// went wrong.
func roundTrip(d *rdf.Dataset, s closureSyntax) string {
	var buf bytes.Buffer
	if err := Write(&buf, d, s.write, s.opts); err != nil {
		return "write: " + err.Error()
	}
	back, err := Read(bytes.NewReader(buf.Bytes()), Options{Format: s.read, ReadOptions: rdf.ReadOptions{File: "written." + s.name}})
	if err != nil {
		return fmt.Sprintf("read back: %v\n%s", err, clip(buf.String()))
	}
	ok, err := canon.Isomorphic(d, back)
	if err != nil {
		return "isomorphism: " + err.Error()
	}
	if !ok {
		return fmt.Sprintf("not isomorphic (%d quads, read back %d):\n%s\nwritten:\n%s", d.Len(), back.Len(), clip(nquadsOf(d)), clip(buf.String()))
	}
	if a, b := langLiterals(d), langLiterals(back); !slices.Equal(a, b) {
		return fmt.Sprintf("language tags changed: %q, read back %q", a, b)
	}
	return ""
}

// langLiterals lists the language-tagged literals of d (not those inside
// triple terms, whose value is canonical N-Triples with lower-case tags),
// each with its tag as written, sorted.
func langLiterals(d *rdf.Dataset) []string {
	var out []string
	for _, q := range d.Quads() {
		if q.O.Lang != "" {
			out = append(out, q.O.Value+"@"+q.O.Lang+"--"+q.O.Dir)
		}
	}
	sort.Strings(out)
	return out
}

func nquadsOf(d *rdf.Dataset) string {
	var b strings.Builder
	for _, q := range d.Sorted() {
		b.WriteString(q.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "..."
	}
	return s
}

// closureTally counts checks by pair (source syntax, target syntax).
type closureTally struct {
	checked map[[2]string]int
	skipped map[string]int // by "target: reason"
	failed  int
	// skippedJSONLD lists, by reason, the inputs the JSON-LD target
	// cannot hold, when listJSONLD is set (reported with -v).
	listJSONLD    bool
	skippedJSONLD map[string][]string
}

func newTally() *closureTally {
	return &closureTally{checked: map[[2]string]int{}, skipped: map[string]int{}, skippedJSONLD: map[string][]string{}}
}

// check runs the closure from source dataset d (read from syntax src) to
// every target syntax.
func (c *closureTally) check(t *testing.T, name, src string, d *rdf.Dataset) {
	t.Helper()
	for _, s := range closureSyntaxes {
		if why := cannotHold(s, d); why != "" {
			c.skipped[s.name+": "+why]++
			if c.listJSONLD && s.name == "jsonld" {
				c.skippedJSONLD[why] = append(c.skippedJSONLD[why], name)
			}
			// The writer says so, rather than write what reads back
			// otherwise (JSON-LD writes relative IRIs, which its
			// reader drops with a warning).
			if why != relativeIRIs {
				if err := Write(io.Discard, d, s.write, s.opts); err == nil {
					c.failed++
					if c.failed <= 20 {
						t.Errorf("%s (read as %s) → %s: written without error, although %s", name, src, s.name, why)
					}
				}
			}
			continue
		}
		if msg := roundTrip(d, s); msg != "" {
			c.failed++
			if c.failed <= 20 {
				t.Errorf("%s (read as %s) → %s: %s", name, src, s.name, msg)
			}
			continue
		}
		c.checked[[2]string{src, s.name}]++
	}
}

func (c *closureTally) report(t *testing.T, what string) {
	t.Helper()
	total := 0
	var keys [][2]string
	for k, n := range c.checked {
		keys = append(keys, k)
		total += n
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1]) })
	lines := []string{fmt.Sprintf("closure %s: %d (source, target, graph) checks isomorphic with tags as written over %d pairs, %d failed", what, total, len(keys), c.failed)}
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("closure %s:   %-8s → %-15s %6d", what, k[0], k[1], c.checked[k]))
	}
	var reasons []string
	for r := range c.skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		lines = append(lines, fmt.Sprintf("closure %s:   skipped %6d: target %s", what, c.skipped[r], r))
	}
	for _, l := range lines {
		t.Log(l)
	}
	for _, r := range slices.Sorted(maps.Keys(c.skippedJSONLD)) {
		t.Logf("closure %s: %d inputs JSON-LD cannot hold: %s:\n  %s", what, len(c.skippedJSONLD[r]), r,
			strings.Join(c.skippedJSONLD[r], "\n  "))
	}
}

// readAs reads data in format f (warnings are expected from hostile data
// and not counted); base resolves relative IRIs.
func readAs(data []byte, f Format, file, base string) (*rdf.Dataset, error) {
	return Read(bytes.NewReader(data), Options{Format: f, ReadOptions: rdf.ReadOptions{File: file, Base: base}})
}

// TestClosureHostile checks the closure on random hostile graphs: each is
// written in and read from every source syntax that can hold it, and the
// result written in and read from every target syntax.
func TestClosureHostile(t *testing.T) {
	n := *closureGraphs
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(16, 2026))
	tally := newTally()
	for i := range n {
		g0 := hostileGraph(rng)
		for _, src := range closureSyntaxes {
			if cannotHold(src, g0) != "" {
				continue
			}
			var buf bytes.Buffer
			if err := Write(&buf, g0, src.write, src.opts); err != nil {
				tally.failed++
				t.Errorf("graph %d: write %s: %v\n%s", i, src.name, err, clip(nquadsOf(g0)))
				continue
			}
			ga, err := readAs(buf.Bytes(), src.read, "g."+src.name, "")
			if err != nil {
				tally.failed++
				t.Errorf("graph %d: read %s: %v\n%s", i, src.name, err, clip(buf.String()))
				continue
			}
			tally.check(t, fmt.Sprintf("graph %d", i), src.name, ga)
		}
		if tally.failed > 20 {
			t.Fatalf("stopping after %d failures", tally.failed)
		}
	}
	tally.report(t, fmt.Sprintf("hostile (%d graphs)", n))
}

// TestClosureConformance checks the closure on every input of the W3C
// suites that parses (positive syntax and eval tests of N-Triples,
// N-Quads, Turtle, TriG, RDF/XML, RDF 1.1 and 1.2), every expected result
// (.nt, .nq) of those suites, of JSON-LD toRdf and of RDF canonicalization.
func TestClosureConformance(t *testing.T) {
	root := shared.MustPath(t, "conformance")
	tally := newTally()
	tally.listJSONLD = true
	seen := map[string]bool{}
	add := func(path, base string) {
		if seen[path] {
			return
		}
		seen[path] = true
		f, ok := FormatFromName(path)
		if !ok {
			return
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Strict: the negative tests and generalized RDF are not data.
		d, err := Read(bytes.NewReader(data), Options{Format: f, ReadOptions: rdf.ReadOptions{File: path, Base: base, Strict: true}})
		if err != nil {
			return
		}
		rel, _ := filepath.Rel(root, path)
		tally.check(t, rel, string(f), d)
	}
	for _, m := range []string{"ntriples", "nquads", "turtle", "trig", "rdfxml", "rdf12-ntriples", "rdf12-nquads", "rdf12-turtle", "rdf12-trig", "rdf12-rdfxml", "rdf-canon"} {
		tests, err := w3c.Load(filepath.Join(root, m, "manifest.ttl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			if tc.Negative() {
				continue
			}
			if tc.Action != "" {
				add(tc.Action, tc.ActionIRI)
			}
			if tc.Result != "" {
				add(tc.Result, tc.ResultIRI)
			}
		}
	}
	results, err := filepath.Glob(filepath.Join(root, "jsonld", "toRdf", "*-out.nq"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range results {
		add(p, "")
	}
	if len(seen) < 1000 {
		t.Errorf("only %d files: the suites are incomplete", len(seen))
	}
	tally.report(t, fmt.Sprintf("W3C (%d files)", len(seen)))
}

// TestClosureSharedData checks the closure on the example documents of
// ../shared/data and on a sample of the Nomisma dump (its first 20,000
// statements).
func TestClosureSharedData(t *testing.T) {
	dir := shared.MustPath(t, "data")
	tally := newTally()
	files, err := filepath.Glob(filepath.Join(dir, "examples", "*"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(dir, "big", "nomisma-prefixes.ttl"))
	n := 0
	for _, path := range files {
		f, ok := FormatFromName(path)
		if !ok {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := readAs(data, f, path, "http://example.org/base/")
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		tally.check(t, filepath.Base(path), string(f), d)
		n++
	}
	zr := shared.OpenGzip(t, filepath.Join(dir, "big", "nomisma.nt.gz"))
	defer zr.Close()
	var sample bytes.Buffer
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for i := 0; i < 20000 && sc.Scan(); i++ {
		sample.Write(sc.Bytes())
		sample.WriteByte('\n')
	}
	d, err := readAs(sample.Bytes(), NTriples, "nomisma.nt", "")
	if err != nil {
		t.Fatal(err)
	}
	tally.check(t, "nomisma sample", string(NTriples), d)
	tally.report(t, fmt.Sprintf("shared data (%d files and a %d-triple Nomisma sample)", n, d.Len()))
}

// FuzzClosure builds a hostile graph from the fuzzer's bytes, writes it in
// every syntax that can hold it and requires each reader to read back an
// isomorphic graph with the same language tags.
func FuzzClosure(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x03\x05\x01\x02\x07\x09\x0b\x0d\x11\x13"))
	f.Add([]byte("hostile graphs: {search_term_string} zh-classical \x00\x01\xff"))
	rng := rand.New(rand.NewPCG(1, 2))
	for range 8 {
		b := make([]byte, 64)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := hostileGraph(testgraph.FromBytes(data))
		for _, s := range closureSyntaxes {
			if cannotHold(s, d) != "" {
				continue
			}
			if msg := roundTrip(d, s); msg != "" {
				t.Fatalf("%s: %s", s.name, msg)
			}
		}
	})
}
