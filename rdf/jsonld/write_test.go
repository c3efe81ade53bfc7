package jsonld

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// sampleQuads covers IRIs, blank nodes, plain, typed and language-tagged
// literals, rdf:type, a well-formed list, named graphs (IRI and blank) and
// an IRI that is not well formed.
func sampleQuads() []rdf.Quad {
	ex := func(s string) rdf.Term { return rdf.NewIRI("http://example.org/" + s) }
	b := rdf.NewBlank
	g := ex("g")
	return []rdf.Quad{
		{S: ex("alice"), P: rdf.NewIRI(rdf.RDFType), O: ex("Person")},
		{S: ex("alice"), P: ex("name"), O: rdf.NewString("Alice \"A\" <x> & y\n")},
		{S: ex("alice"), P: ex("name"), O: rdf.NewLangString("Alicia", "es")},
		{S: ex("alice"), P: ex("age"), O: rdf.NewLiteral("042", rdf.XSDInteger)},
		{S: ex("alice"), P: ex("score"), O: rdf.NewLiteral("1.5", rdf.XSDDecimal)},
		{S: ex("alice"), P: ex("ok"), O: rdf.NewLiteral("true", rdf.XSDBoolean)},
		{S: ex("alice"), P: ex("knows"), O: b("bob")},
		{S: b("bob"), P: ex("name"), O: rdf.NewString("Bob")},
		{S: ex("alice"), P: ex("list"), O: b("l1")},
		{S: b("l1"), P: rdf.NewIRI(rdf.RDFFirst), O: rdf.NewString("one")},
		{S: b("l1"), P: rdf.NewIRI(rdf.RDFRest), O: b("l2")},
		{S: b("l2"), P: rdf.NewIRI(rdf.RDFFirst), O: ex("two")},
		{S: b("l2"), P: rdf.NewIRI(rdf.RDFRest), O: rdf.NewIRI(rdf.RDFNil)},
		{S: ex("alice"), P: ex("home"), O: rdf.NewIRI("http://example.org/search?q={term}")},
		{S: ex("alice"), P: ex("in"), O: ex("x"), G: g},
		{S: b("bob"), P: ex("in"), O: rdf.NewString("graph"), G: g},
		{S: ex("y"), P: ex("in"), O: rdf.NewString("blank graph"), G: b("bg")},
		{S: ex("y"), P: ex("in"), O: rdf.NewString("default")},
	}
}

func buildDataset(quads []rdf.Quad, prefixes []rdf.Prefix) *rdf.Dataset {
	d := rdf.NewDataset()
	for _, q := range quads {
		d.Add(q)
	}
	for _, p := range prefixes {
		d.AddPrefix(p.Name, p.IRI)
	}
	return d
}

func TestWriteDeterministicAndRoundTrip(t *testing.T) {
	quads := sampleQuads()
	reversed := slices.Clone(quads)
	slices.Reverse(reversed)
	rotated := append(slices.Clone(quads[7:]), quads[:7]...)
	prefixes := []rdf.Prefix{{Name: "ex", IRI: "http://example.org/"}, {Name: "xsd", IRI: rdf.XSD}}
	for _, form := range []Form{Expanded, Compacted} {
		for _, indent := range []string{"", "  "} {
			opts := WriteOptions{Form: form, Indent: indent}
			var outs []string
			for _, qs := range [][]rdf.Quad{quads, reversed, rotated} {
				var buf bytes.Buffer
				if err := Write(&buf, buildDataset(qs, prefixes), opts); err != nil {
					t.Fatal(err)
				}
				outs = append(outs, buf.String())
			}
			if outs[0] != outs[1] || outs[0] != outs[2] {
				t.Errorf("%v indent %q: output depends on insertion order:\n%s\n---\n%s", form, indent, outs[0], outs[1])
			}
			if !json.Valid([]byte(outs[0])) {
				t.Fatalf("invalid JSON: %s", outs[0])
			}
			back := rdf.NewDataset()
			if err := Parse(strings.NewReader(outs[0]), back, Options{}); err != nil {
				t.Fatalf("%v: reading back: %v\n%s", form, err, outs[0])
			}
			if got, want := canonicalQuads(back.Quads()), canonicalQuads(quads); got != want {
				t.Errorf("%v: round trip not isomorphic:\n got:\n%s\n want:\n%s\n output:\n%s", form, got, want, outs[0])
			}
		}
	}
}

func TestWriteCompactedUsesPrefixes(t *testing.T) {
	d := buildDataset(sampleQuads()[:3], []rdf.Prefix{{Name: "ex", IRI: "http://example.org/"}})
	var buf bytes.Buffer
	if err := Write(&buf, d, WriteOptions{Form: Compacted}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	ctx, _ := doc["@context"].(map[string]any)
	if ctx["ex"] != "http://example.org/" || doc["@id"] != "ex:alice" || doc["@type"] != "ex:Person" {
		t.Errorf("not compacted with the dataset's prefixes: %s", buf.String())
	}
}

func TestWriteCompactedSchemaOrg(t *testing.T) {
	// Read the example page, write it compacted with the schema.org context
	// (offline), read it back: the same dataset.
	data := shared.ReadFile(t, "data", "examples", "html-schemaorg-songkick-years-and-years-tour-events.html")
	d := rdf.NewDataset()
	if err := ParseHTML(bytes.NewReader(data), d, Options{}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, d, WriteOptions{Form: Compacted, Context: "https://schema.org"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"@context":"https://schema.org"`) || !strings.Contains(buf.String(), `"MusicEvent"`) {
		t.Errorf("not compacted with schema.org: %.300s", buf.String())
	}
	back := rdf.NewDataset()
	if err := Parse(&buf, back, Options{}); err != nil {
		t.Fatal(err)
	}
	if got, want := canonicalQuads(back.Quads()), canonicalQuads(d.Quads()); got != want {
		t.Errorf("schema.org round trip differs (%d vs %d quads)", back.Len(), d.Len())
	}
}

// json-gold's FromRDF panics on a list node that has rdf:rest but no
// rdf:first (found by FuzzParseJSONLD from toRdf/li14-in.jsonld); Write
// must not fold such lists and must still round-trip.
func TestWriteMalformedList(t *testing.T) {
	ex := rdf.NewIRI("http://example.org/s")
	quads := []rdf.Quad{
		{S: ex, P: rdf.NewIRI("http://example.org/p"), O: rdf.NewBlank("l")},
		{S: rdf.NewBlank("l"), P: rdf.NewIRI(rdf.RDFRest), O: rdf.NewIRI(rdf.RDFNil)},
		{S: ex, P: rdf.NewIRI("http://example.org/q"), O: rdf.NewBlank("m")},
		{S: rdf.NewBlank("m"), P: rdf.NewIRI(rdf.RDFFirst), O: rdf.NewString("x")},
		{S: rdf.NewBlank("m"), P: rdf.NewIRI(rdf.RDFRest), O: rdf.NewIRI(rdf.RDFNil)},
	}
	var buf bytes.Buffer
	if err := Write(&buf, buildDataset(quads, nil), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back := rdf.NewDataset()
	if err := Parse(bytes.NewReader(buf.Bytes()), back, Options{}); err != nil {
		t.Fatal(err)
	}
	if got, want := canonicalQuads(back.Quads()), canonicalQuads(quads); got != want {
		t.Errorf("got\n%s\nwant\n%s\noutput %s", got, want, buf.String())
	}
}

// An RDF 1.2 directional language-tagged string is written with @language
// (as written) and @direction and reads back as itself; a literal of an
// i18n datatype stays a typed literal.
func TestWriteDirection(t *testing.T) {
	dir := rdf.NewLangString("abc", "AR-eg")
	dir.Datatype, dir.Dir = rdf.RDFDirLangString, "rtl"
	s, p := rdf.NewIRI("http://example.org/s"), rdf.NewIRI("http://example.org/p")
	quads := []rdf.Quad{
		{S: s, P: p, O: dir},
		{S: s, P: p, O: rdf.NewLiteral("abc", "https://www.w3.org/ns/i18n#ar-eg_rtl")},
		{S: s, P: p, O: rdf.NewLangString("abc", "AR-eg")},
	}
	for _, form := range []Form{Expanded, Compacted} {
		out := writeReadBack(t, quads, nil, WriteOptions{Form: form})
		if !strings.Contains(out, `"@direction":"rtl"`) || !strings.Contains(out, `"@language":"AR-eg"`) {
			t.Errorf("%v: no @direction with the tag as written: %s", form, out)
		}
	}
}

// writeReadBack writes the quads (with the prefixes) with opts, reads the
// output back, fails the test unless it is the same dataset (tags as
// written), and returns the output.
func writeReadBack(t *testing.T, quads []rdf.Quad, prefixes []rdf.Prefix, opts WriteOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, buildDataset(quads, prefixes), opts); err != nil {
		t.Fatal(err)
	}
	back := rdf.NewDataset()
	if err := Parse(bytes.NewReader(buf.Bytes()), back, Options{}); err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.String())
	}
	if got, want := canonicalQuads(back.Quads()), canonicalQuads(quads); got != want {
		t.Errorf("%v, prefixes %v: got\n%s\nwant\n%s\noutput %s", opts.Form, prefixes, got, want, buf.String())
	}
	return buf.String()
}

// Local names with ':' are not written as @vocab-relative keys or compact
// IRIs that read back as other IRIs ("p:1" would be an IRI of scheme p):
// the data of the W3C Turtle test turtle-syntax-ln-colons, with its
// prefix as @vocab and as a prefix.
func TestWriteCompactedColonsInLocalNames(t *testing.T) {
	ns := "http://www.w3.org/2013/TurtleTests/"
	var quads []rdf.Quad
	for _, spo := range [][3]string{{"s:1", "p:1", "o:1"}, {"s::2", "p::2", "o::2"}, {"3:s", "3:p", "3"}, {":s", ":p", ":o"}, {":s:", ":p:", ":o:"}} {
		quads = append(quads, rdf.Quad{S: rdf.NewIRI(ns + spo[0]), P: rdf.NewIRI(ns + spo[1]), O: rdf.NewIRI(ns + spo[2])})
	}
	for _, prefixes := range [][]rdf.Prefix{{{Name: "", IRI: ns}}, {{Name: "t", IRI: ns}}, {{Name: "", IRI: ns}, {Name: "p", IRI: "http://other/"}}} {
		writeReadBack(t, quads, prefixes, WriteOptions{Form: Compacted})
	}
}

// Compacting with the schema.org context: values whose datatype or kind
// differ from the coercion of their term (startDate is coerced to
// schema:Date, sameAs and url to IRIs) are written explicitly, tags as
// written; an IRI whose scheme is a prefix of the context ("foaf:x") cannot
// be written and is an error naming it.
func TestWriteCompactedSchemaOrgCoercions(t *testing.T) {
	s := func(l string) rdf.Term { return rdf.NewIRI("http://schema.org/" + l) }
	ev := rdf.NewIRI("http://example.com/event")
	quads := []rdf.Quad{
		{S: ev, P: rdf.NewIRI(rdf.RDFType), O: s("MusicEvent")},
		{S: ev, P: s("startDate"), O: rdf.NewLiteral("2015-10-26", "http://schema.org/Date")},
		{S: ev, P: s("startDate"), O: rdf.NewLiteral("2015-10-26T19:00:00", rdf.XSD+"dateTime")},
		{S: ev, P: s("startDate"), O: rdf.NewString("soon")},
		{S: ev, P: s("sameAs"), O: rdf.NewIRI("http://example.com/other")},
		{S: ev, P: s("sameAs"), O: rdf.NewString("http://example.com/not-an-IRI")},
		{S: ev, P: s("url"), O: rdf.NewBlank("u")},
		{S: ev, P: s("name"), O: rdf.NewLangString("Years & Years", "EN-gb")},
		{S: ev, P: s("type"), O: rdf.NewString("a property named type")},
		{S: ev, P: rdf.NewIRI(rdf.RDFType), O: rdf.NewString("a literal type")},
		{S: rdf.NewBlank("u"), P: s("name"), O: rdf.NewLiteral("1", rdf.XSDInteger)},
	}
	out := writeReadBack(t, quads, nil, WriteOptions{Form: Compacted, Context: "https://schema.org"})
	for _, want := range []string{`"startDate":[`, `"2015-10-26"`, `"sameAs":[`, `"http://example.com/other"`, `"@language":"EN-gb"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s: %s", want, out)
		}
	}
	d := buildDataset([]rdf.Quad{{S: ev, P: s("sameAs"), O: rdf.NewIRI("foaf:x")}}, nil)
	err := Write(&bytes.Buffer{}, d, WriteOptions{Form: Compacted, Context: "https://schema.org"})
	if err == nil || !strings.Contains(err.Error(), "<foaf:x>") {
		t.Errorf("foaf:x: got %v, want an error naming the IRI", err)
	}
}
