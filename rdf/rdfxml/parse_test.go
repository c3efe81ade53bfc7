package rdfxml

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/ntriples"
)

const head = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/ns#">`

// parseString parses an RDF/XML document into a new dataset.
func parseString(t *testing.T, doc string, opts rdf.ReadOptions) (*rdf.Dataset, error) {
	t.Helper()
	d := rdf.NewDataset()
	err := Parse(strings.NewReader(doc), d, opts)
	return d, err
}

// mustNT parses hand-written N-Triples, the oracle of these tests.
func mustNT(t *testing.T, nt string) *rdf.Dataset {
	t.Helper()
	d := rdf.NewDataset()
	if err := ntriples.Parse(strings.NewReader(nt), ntriples.NTriples, d, rdf.ReadOptions{}); err != nil {
		t.Fatalf("bad expected N-Triples: %v\n%s", err, nt)
	}
	return d
}

func assertIsomorphic(t *testing.T, got, want *rdf.Dataset) {
	t.Helper()
	ok, err := canon.Isomorphic(got, want)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Errorf("graphs differ\n got:\n%s want:\n%s", dump(got), dump(want))
	}
}

func TestParseFeatures(t *testing.T) {
	cases := []struct {
		name, doc, base, want string
	}{
		{
			name: "typed node, property attributes, rdf:type attribute",
			doc:  head + `<ex:Person rdf:about="http://example.org/alice" ex:name="Alice" rdf:type="http://example.org/ns#Agent"/></rdf:RDF>`,
			want: `<http://example.org/alice> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#Person> .
<http://example.org/alice> <http://example.org/ns#name> "Alice" .
<http://example.org/alice> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#Agent> .
`,
		},
		{
			name: "xml:lang inherited and reset, datatype wins",
			doc: head + `<rdf:Description rdf:about="http://x/s" xml:lang="en"><ex:a>hi</ex:a><ex:b xml:lang="">plain</ex:b>` +
				`<ex:c rdf:datatype="http://www.w3.org/2001/XMLSchema#integer">7</ex:c><ex:d xml:lang="FR-ca">salut</ex:d></rdf:Description></rdf:RDF>`,
			want: `<http://x/s> <http://example.org/ns#a> "hi"@en .
<http://x/s> <http://example.org/ns#b> "plain" .
<http://x/s> <http://example.org/ns#c> "7"^^<http://www.w3.org/2001/XMLSchema#integer> .
<http://x/s> <http://example.org/ns#d> "salut"@fr-ca .
`,
		},
		{
			name: "rdf:li numbering per node, xml:base and rdf:ID",
			doc: head + `<rdf:Seq rdf:ID="s" xml:base="http://example.org/dir/doc"><rdf:li rdf:resource="a"/><rdf:li>b</rdf:li>` +
				`<rdf:li rdf:parseType="Resource"><rdf:li>inner</rdf:li></rdf:li></rdf:Seq></rdf:RDF>`,
			want: `<http://example.org/dir/doc#s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Seq> .
<http://example.org/dir/doc#s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_1> <http://example.org/dir/a> .
<http://example.org/dir/doc#s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_2> "b" .
<http://example.org/dir/doc#s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#_3> _:r .
_:r <http://www.w3.org/1999/02/22-rdf-syntax-ns#_1> "inner" .
`,
		},
		{
			name: "collection, nested node element, nodeID",
			doc: head + `<rdf:Description rdf:nodeID="x"><ex:list rdf:parseType="Collection"><rdf:Description rdf:about="http://x/1"/>` +
				`<ex:T rdf:nodeID="y"/></ex:list><ex:empty rdf:parseType="Collection"/><ex:knows><rdf:Description rdf:about="http://x/2"/></ex:knows></rdf:Description></rdf:RDF>`,
			want: `_:x <http://example.org/ns#list> _:l1 .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> <http://x/1> .
_:l1 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> _:l2 .
_:y <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#T> .
_:l2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#first> _:y .
_:l2 <http://www.w3.org/1999/02/22-rdf-syntax-ns#rest> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
_:x <http://example.org/ns#empty> <http://www.w3.org/1999/02/22-rdf-syntax-ns#nil> .
_:x <http://example.org/ns#knows> <http://x/2> .
`,
		},
		{
			name: "reification of a property element with rdf:ID, relative to the base",
			base: "http://example.org/base/doc.rdf",
			doc:  head + `<rdf:Description rdf:about=""><ex:p rdf:ID="st">v</ex:p></rdf:Description></rdf:RDF>`,
			want: `<http://example.org/base/doc.rdf> <http://example.org/ns#p> "v" .
<http://example.org/base/doc.rdf#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement> .
<http://example.org/base/doc.rdf#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject> <http://example.org/base/doc.rdf> .
<http://example.org/base/doc.rdf#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate> <http://example.org/ns#p> .
<http://example.org/base/doc.rdf#st> <http://www.w3.org/1999/02/22-rdf-syntax-ns#object> "v" .
`,
		},
		{
			name: "XML literal in exclusive canonical form",
			doc: `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/ns#" xmlns:h="http://www.w3.org/1999/xhtml" xmlns:u="urn:unused">` +
				`<rdf:Description rdf:about="http://x/s"><ex:lit rdf:parseType="Literal"><h:b z="1" a="x&amp;&lt;&gt;">t &amp; &gt;<!-- c --><h:i/></h:b><?pi data?></ex:lit></rdf:Description></rdf:RDF>`,
			want: `<http://x/s> <http://example.org/ns#lit> "<h:b xmlns:h=\"http://www.w3.org/1999/xhtml\" a=\"x&amp;&lt;>\" z=\"1\">t &amp; &gt;<h:i></h:i></h:b><?pi data?>"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#XMLLiteral> .
`,
		},
		{
			name: "empty property elements",
			doc: head + `<rdf:Description rdf:about="http://x/s" xml:lang="de"><ex:e/><ex:r rdf:resource="http://x/o"/>` +
				`<ex:b ex:q="v"/><ex:t rdf:datatype="http://www.w3.org/2001/XMLSchema#string"/></rdf:Description></rdf:RDF>`,
			want: `<http://x/s> <http://example.org/ns#e> ""@de .
<http://x/s> <http://example.org/ns#r> <http://x/o> .
<http://x/s> <http://example.org/ns#b> _:b .
_:b <http://example.org/ns#q> "v"@de .
<http://x/s> <http://example.org/ns#t> "" .
`,
		},
		{
			name: "root node element without rdf:RDF, comments and PIs around",
			doc:  `<?xml version="1.0"?><!-- c --><ex:T xmlns:ex="http://example.org/ns#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" rdf:about="http://x/s"/><?pi?>`,
			want: `<http://x/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#T> .
`,
		},
		{
			name: "RDF 1.2 base direction needs rdf:version",
			doc: `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/ns#" xmlns:its="http://www.w3.org/2005/11/its" its:dir="rtl" xml:lang="ar">` +
				`<rdf:Description rdf:about="http://x/s"><ex:a>x</ex:a><ex:b rdf:version="1.2">y</ex:b></rdf:Description></rdf:RDF>`,
			want: `<http://x/s> <http://example.org/ns#a> "x"@ar .
<http://x/s> <http://example.org/ns#b> "y"@ar--rtl .
`,
		},
		{
			name: "internal DTD entities",
			doc: `<?xml version="1.0"?><!DOCTYPE rdf:RDF [ <!ENTITY ex "http://example.org/ns#"> <!ENTITY t "&ex;T&#x41;"> <!ENTITY % pe "x"> ]>` +
				`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="&ex;"><rdf:Description rdf:about="&ex;s"><rdf:type rdf:resource="&t;"/><ex:v>&amp;&t;</ex:v></rdf:Description></rdf:RDF>`,
			want: `<http://example.org/ns#s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#TA> .
<http://example.org/ns#s> <http://example.org/ns#v> "&http://example.org/ns#TA" .
`,
		},
		{
			name: "unqualified about and resource are accepted as rdf: terms",
			doc:  head + `<rdf:Description about="http://x/s"><ex:p resource="http://x/o"/></rdf:Description></rdf:RDF>`,
			want: `<http://x/s> <http://example.org/ns#p> <http://x/o> .
`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseString(t, c.doc, rdf.ReadOptions{Base: c.base})
			if err != nil {
				t.Fatal(err)
			}
			assertIsomorphic(t, got, mustNT(t, c.want))
		})
	}
}

// Errors carry the line, column (in code points) and byte offset of the
// element or attribute at fault; the offsets are counted by hand (head is
// 99 bytes long).
func TestParseErrors(t *testing.T) {
	if len(head) != 99 {
		t.Fatalf("head is %d bytes", len(head))
	}
	cases := []struct {
		name, doc string
		line, col int
		off       int64
		msg       string
	}{
		{"property element not in a namespace", head + "\n  <rdf:Description>\n    <p>x</p></rdf:Description></rdf:RDF>", 3, 5, 99 + 1 + 20 + 4, "not in a namespace"},
		{"text beside a node element", head + "\n<ex:T>\n <ex:p>a<ex:U/></ex:p></ex:T></rdf:RDF>", 3, 9, 99 + 1 + 7 + 8, "mixes text and elements"},
		{"two node elements in a property", head + "<ex:T><ex:p><ex:U/><ex:V/></ex:p></ex:T></rdf:RDF>", 1, 119, 118, "more than one node element"},
		{"column counts code points", head + "\n<!-- ééé --><rdf:li/></rdf:RDF>", 2, 13, 99 + 1 + 15, "rdf:li cannot be used as a node element"},
		{"undeclared prefix", head + "<zz:T/></rdf:RDF>", 1, 100, 99, "undeclared namespace prefix"},
		{"undeclared attribute prefix", head + "<ex:T\n  zz:a=\"1\"/></rdf:RDF>", 2, 3, 99 + 5 + 1 + 2, "undeclared namespace prefix"},
		{"mismatched end tag", head + "<ex:T></ex:U></rdf:RDF>", 1, 106, 105, "does not match <ex:T>"},
		{"unclosed element", head + "<ex:T>", 1, 106, 105, "not closed"},
		{"second root", head + "</rdf:RDF><T/>", 1, 110, 109, "second root"},
		{"text in rdf:RDF", head + "\n hello </rdf:RDF>", 1, 100, 99, "text where a node element is expected"},
		{"rdf:resource with text", head + "<ex:T><ex:p rdf:resource=\"http://x\">t</ex:p></ex:T></rdf:RDF>", 1, 106, 105, "cannot have rdf:resource"},
		{"rdf:datatype on empty element with resource", head + "<ex:T><ex:p rdf:datatype=\"http://d\" rdf:resource=\"http://x\"/></ex:T></rdf:RDF>", 1, 106, 105, "rdf:datatype cannot be combined"},
		{"parseType with a property attribute", head + "<ex:T><ex:p rdf:parseType=\"Resource\" ex:q=\"v\"/></ex:T></rdf:RDF>", 1, 106, 105, "rdf:parseType cannot be combined"},
		{"attribute on rdf:RDF", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" rdf:about="http://x"/>`, 1, 66, 65, "not allowed on rdf:RDF"},
		{"duplicate rdf:ID on a property", head + "<ex:T><ex:p rdf:ID=\"a\">1</ex:p><ex:p rdf:ID=\"a\">2</ex:p></ex:T></rdf:RDF>", 1, 137, 136, "used twice"},
		{"rdf:annotation with rdf:annotationNodeID", head + "<ex:T><ex:p rdf:annotation=\"http://x/r\" rdf:annotationNodeID=\"n\">1</ex:p></ex:T></rdf:RDF>", 1, 106, 105, "rdf:annotation and rdf:annotationNodeID"},
		{"bad rdf:nodeID after a multi-line attribute", head + "<ex:T ex:a='é\né' rdf:nodeID='1'/></rdf:RDF>", 2, 4, 99 + 15 + 4, "not an XML NCName"},
		{"empty document", "", 1, 1, 0, "no root element"},
		{"bad its:dir", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:its="http://www.w3.org/2005/11/its" its:dir="up"/>`, 1, 108, 107, "its:dir"},
		{"external entity", `<!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]>` + head + `<ex:T ex:p="&e;"/></rdf:RDF>`, 1, 169, 168, "invalid character entity &e;"},
		{"recursive entities", `<!DOCTYPE r [<!ENTITY a "&b;"><!ENTITY b "&a;">]>` + head + `</rdf:RDF>`, 1, 1, 0, "refers to itself"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseString(t, c.doc, rdf.ReadOptions{File: "in.rdf"})
			var pe *rdf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("want a *rdf.ParseError, got %v", err)
			}
			if pe.Line != c.line || pe.Column != c.col || pe.Offset != c.off || !strings.Contains(pe.Msg, c.msg) || pe.File != "in.rdf" {
				t.Errorf("got %v (offset %d), want in.rdf:%d:%d (offset %d): ...%s...", err, pe.Offset, c.line, c.col, c.off, c.msg)
			}
		})
	}
}

func TestIDUniquenessIsPerBase(t *testing.T) {
	doc := head + `<rdf:Description rdf:ID="a" xml:base="http://x/1"/><rdf:Description rdf:ID="a" xml:base="http://x/2"/></rdf:RDF>`
	got, err := parseString(t, doc, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Len() != 0 {
		t.Errorf("want no triples, got %d", got.Len())
	}
}

func TestBlankLabelsFresh(t *testing.T) {
	// A nodeID that looks like a generated label must not merge with a
	// generated blank node.
	doc := head + `<rdf:Description rdf:nodeID="genid1"><ex:p><rdf:Description ex:q="v"/></ex:p></rdf:Description></rdf:RDF>`
	got, err := parseString(t, doc, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assertIsomorphic(t, got, mustNT(t, `_:a <http://example.org/ns#p> _:b .
_:b <http://example.org/ns#q> "v" .
`))
}

func TestPrefixesReported(t *testing.T) {
	doc := `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://d/" xmlns:ex="http://e/">` +
		`<rdf:Description><ex:p rdf:parseType="Literal"><x xmlns:in="http://inside/"/></ex:p></rdf:Description></rdf:RDF>`
	got, err := parseString(t, doc, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rdf.Prefix{{Name: "rdf", IRI: rdf.RDFNS}, {Name: "", IRI: "http://d/"}, {Name: "ex", IRI: "http://e/"}}
	if fmt.Sprint(got.Prefixes) != fmt.Sprint(want) {
		t.Errorf("prefixes %v, want %v", got.Prefixes, want)
	}
}

func TestWarningsAndStrict(t *testing.T) {
	doc := head + `<rdf:Description rdf:about="rel" junk="1"/></rdf:RDF>`
	var warns []string
	_, err := parseString(t, doc, rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warns = append(warns, e.Msg) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 || !strings.Contains(warns[0], "not absolute") || !strings.Contains(warns[1], "unqualified attribute junk") {
		t.Errorf("warnings %q", warns)
	}
	if _, err := parseString(t, doc, rdf.ReadOptions{Strict: true}); err == nil {
		t.Error("strict mode accepted an unqualified attribute")
	}
}

func TestSinkErrorStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := Parse(strings.NewReader(head+`<ex:T ex:a="1" ex:b="2"/></rdf:RDF>`), rdf.SinkFunc(func(rdf.Quad) error {
		n++
		return stop
	}), rdf.ReadOptions{})
	if err != stop || n != 1 {
		t.Errorf("got %v after %d quads, want the sink's error after 1", err, n)
	}
}

func TestLimits(t *testing.T) {
	deep := head + strings.Repeat("<ex:T><ex:p>", 50) + strings.Repeat("</ex:p></ex:T>", 50) + "</rdf:RDF>"
	cases := []struct {
		name string
		doc  string
		lim  rdf.Limits
	}{
		{"depth", deep, rdf.Limits{MaxDepth: 20}},
		{"bytes", deep, rdf.Limits{MaxBytes: 200}},
		{"quads", head + `<ex:T ex:a="1" ex:b="2" ex:c="3"/></rdf:RDF>`, rdf.Limits{MaxQuads: 2}},
		{"literal length", head + `<ex:T><ex:p>` + strings.Repeat("x", 100) + `</ex:p></ex:T></rdf:RDF>`, rdf.Limits{MaxTermLength: 50}},
		{"IRI length", head + `<ex:T rdf:about="http://x/` + strings.Repeat("x", 100) + `"/></rdf:RDF>`, rdf.Limits{MaxTermLength: 50}},
		{"XML literal length", head + `<ex:T><ex:p rdf:parseType="Literal">` + strings.Repeat("<a/>", 100) + `</ex:p></ex:T></rdf:RDF>`, rdf.Limits{MaxTermLength: 50}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseString(t, c.doc, rdf.ReadOptions{Limits: c.lim})
			var pe *rdf.ParseError
			if !errors.Is(err, rdf.ErrLimit) || !errors.As(err, &pe) || pe.Line < 1 {
				t.Errorf("want a limit ParseError, got %v", err)
			}
		})
	}
	// Even "no limit" keeps the nesting within the reader's own bound.
	deeper := head + strings.Repeat("<ex:T><ex:p>", 40000) + strings.Repeat("</ex:p></ex:T>", 40000) + "</rdf:RDF>"
	if _, err := parseString(t, deeper, rdf.ReadOptions{Limits: rdf.Limits{MaxDepth: -1}}); !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("unbounded depth: want a limit error, got %v", err)
	}
	// The same documents pass with the default limits.
	if _, err := parseString(t, deep, rdf.ReadOptions{}); err != nil {
		t.Errorf("default limits: %v", err)
	}
}

// TestBillionLaughs checks that nested entity definitions fail fast instead
// of expanding exponentially, and that many references to a large entity are
// stopped by the expansion budget.
func TestBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">`)
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, `<!ENTITY lol%d "%s">`, i, strings.Repeat(fmt.Sprintf("&lol%d;", i-1), 10))
	}
	b.WriteString(`]>` + head + `<ex:T ex:p="&lol9;"/></rdf:RDF>`)
	start := time.Now()
	_, err := parseString(t, b.String(), rdf.ReadOptions{})
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("want a limit error, got %v", err)
	}
	// A 60 kB entity referenced 2000 times: 120 MB from a 66 kB input.
	big := `<!DOCTYPE r [<!ENTITY a "` + strings.Repeat("x", 60000) + `">]>` + head +
		`<ex:T><ex:p>` + strings.Repeat("&a;", 2000) + `</ex:p></ex:T></rdf:RDF>`
	_, err = parseString(t, big, rdf.ReadOptions{})
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("want a limit error, got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestHandwrittenCorpus parses the hand-written RDF/XML file of the
// tokenizer corpus; the expected triples were written by hand from the
// RDF/XML specification.
func TestHandwrittenCorpus(t *testing.T) {
	path := shared.MustPath(t, "tokenizers", "corpus", "rdfxml-handwritten.rdf")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseString(t, string(src), rdf.ReadOptions{File: path})
	if err != nil {
		t.Fatal(err)
	}
	assertIsomorphic(t, got, mustNT(t, `<http://example.org/coins/mint/emporion> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://nomisma.org/ontology#Mint> .
<http://example.org/coins/mint/emporion> <http://www.w3.org/2004/02/skos/core#prefLabel> "Emporion"@en .
<http://example.org/coins/mint/emporion> <http://www.w3.org/2004/02/skos/core#prefLabel> "Empúries"@ca .
<http://example.org/coins/mint/emporion> <http://www.w3.org/2004/02/skos/core#prefLabel> "Ἐμπόριον"@grc .
<http://example.org/coins/mint/emporion> <http://www.w3.org/2004/02/skos/core#definition> "Greek colony on the Costa Brava, founded c. 575 BC & later Roman."@en .
<http://example.org/coins/mint/emporion> <http://www.w3.org/2000/01/rdf-schema#seeAlso> <http://www.wikidata.org/entity/Q1058934> .
<http://example.org/coins/mint/emporion> <http://nomisma.org/ontology#hasFindspot> _:f .
_:f <http://www.w3.org/2000/01/rdf-schema#label> "L'Escala" .
_:f <http://www.w3.org/2003/01/geo/wgs84_pos#lat> "42.1337"^^<http://www.w3.org/2001/XMLSchema#decimal> .
_:n1 <http://www.w3.org/2000/01/rdf-schema#comment> "attribute literal" .
`))
	path = shared.MustPath(t, "tokenizers", "corpus", "rdfxml-w3c-charmod.rdf")
	src, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err = parseString(t, string(src), rdf.ReadOptions{File: path})
	if err != nil {
		t.Fatal(err)
	}
	assertIsomorphic(t, got, mustNT(t, `<http://www.w3.org/TR/2002/WD-charmod-20020220> <http://example.org/Creator> _:c .
_:c <http://example.org/named> "D\u00FCrst" .
`))
}

func TestByteOrderMark(t *testing.T) {
	got, err := parseString(t, "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n"+head+`<ex:T rdf:about="http://x/s"/></rdf:RDF>`, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assertIsomorphic(t, got, mustNT(t, "<http://x/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#T> .\n"))
	_, err = parseString(t, "\n<?xml version=\"1.0\"?>"+head+"</rdf:RDF>", rdf.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "2:1: XML declaration is not at the start") {
		t.Errorf("late XML declaration: %v", err)
	}
}

func TestUTF16(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-16"?>` + "\n" + head + `<ex:T rdf:about="http://x/s" ex:n="Dürst €"/></rdf:RDF>`
	for _, big := range []bool{true, false} {
		var b []byte
		if big {
			b = []byte{0xFE, 0xFF}
		} else {
			b = []byte{0xFF, 0xFE}
		}
		for _, u := range utf16.Encode([]rune(doc)) {
			if big {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		got, err := parseString(t, string(b), rdf.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		assertIsomorphic(t, got, mustNT(t, `<http://x/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#T> .
<http://x/s> <http://example.org/ns#n> "D\u00FCrst \u20AC" .
`))
	}
}

func TestLatin1(t *testing.T) {
	doc := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + head + "<ex:T rdf:about=\"http://x/s\" ex:n=\"D\xfcrst\"/></rdf:RDF>"
	got, err := parseString(t, doc, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assertIsomorphic(t, got, mustNT(t, `<http://x/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#T> .
<http://x/s> <http://example.org/ns#n> "D\u00FCrst" .
`))
}
