package jsonld

import (
	"bytes"
	gocontext "context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// roundTripJSONLD writes quads in both forms and reads them back: the
// result must be the same dataset (up to blank node labels).
func roundTripJSONLD(t *testing.T, name string, quads []rdf.Quad) {
	t.Helper()
	for _, form := range []Form{Expanded, Compacted} {
		var buf bytes.Buffer
		if err := Write(&buf, buildDataset(quads, nil), WriteOptions{Form: form}); err != nil {
			t.Errorf("%s, %v: %v", name, form, err)
			continue
		}
		back := rdf.NewDataset()
		if err := Parse(bytes.NewReader(buf.Bytes()), back, Options{}); err != nil {
			t.Errorf("%s, %v: reading back: %v", name, form, err)
			continue
		}
		if got, want := canonicalQuads(back.Quads()), canonicalQuads(quads); got != want {
			t.Errorf("%s, %v: not the same dataset:\n got:\n%s\n want:\n%s\noutput: %.2000s", name, form, got, want, buf.String())
		}
	}
}

// TestWriteListsKeepIdentity: list nodes whose folding into @list would
// lose a statement or a node's identity are written as nodes. The
// Serialize RDF as JSON-LD algorithm (and json-gold before) folded each of
// these, so that the output read back to another dataset.
func TestWriteListsKeepIdentity(t *testing.T) {
	ex := func(s string) rdf.Term { return rdf.NewIRI("http://example.org/" + s) }
	first, rest, nilT := rdf.NewIRI(rdf.RDFFirst), rdf.NewIRI(rdf.RDFRest), rdf.NewIRI(rdf.RDFNil)
	b := rdf.NewBlank
	for _, c := range []struct {
		name  string
		quads []rdf.Quad
	}{
		{"an IRI list node", []rdf.Quad{
			{S: ex("s"), P: ex("p"), O: ex("x")},
			{S: ex("x"), P: first, O: rdf.NewString("a")},
			{S: ex("x"), P: rest, O: nilT},
		}},
		{"a list node typed rdf:List", []rdf.Quad{
			{S: ex("s"), P: ex("p"), O: b("l")},
			{S: b("l"), P: rdf.NewIRI(rdf.RDFType), O: rdf.NewIRI(rdf.RDFNS + "List")},
			{S: b("l"), P: first, O: rdf.NewString("a")},
			{S: b("l"), P: rest, O: nilT},
		}},
		{"a list node that is its own item", []rdf.Quad{
			{S: b("l"), P: first, O: b("l")},
			{S: b("l"), P: rest, O: nilT},
		}},
		{"a list referred to from another graph", []rdf.Quad{
			{S: ex("s"), P: ex("p"), O: b("l")},
			{S: b("l"), P: first, O: rdf.NewString("a"), G: ex("g")},
			{S: b("l"), P: rest, O: nilT, G: ex("g")},
		}},
		{"a list node also described in another graph", []rdf.Quad{
			{S: ex("s"), P: ex("p"), O: b("l")},
			{S: b("l"), P: first, O: rdf.NewString("a")},
			{S: b("l"), P: rest, O: nilT},
			{S: b("l"), P: ex("q"), O: rdf.NewString("b"), G: ex("g")},
		}},
	} {
		roundTripJSONLD(t, c.name, c.quads)
	}
	// Lists that are folded: a list of lists, and a long one.
	var long []rdf.Quad
	long = append(long, rdf.Quad{S: ex("s"), P: ex("p"), O: b("l0")})
	for i := range 1000 {
		next := nilT
		if i < 999 {
			next = b("l" + strconv.Itoa(i+1))
		}
		long = append(long, rdf.Quad{S: b("l" + strconv.Itoa(i)), P: first, O: rdf.NewLiteral("1", rdf.XSDInteger)},
			rdf.Quad{S: b("l" + strconv.Itoa(i)), P: rest, O: next})
	}
	roundTripJSONLD(t, "a list of 1000 equal items", long)
	var buf bytes.Buffer
	if err := Write(&buf, buildDataset(long, nil), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"@list":[{"@type":"http://www.w3.org/2001/XMLSchema#integer","@value":"1"},`) {
		t.Errorf("the list is not written as @list: %.300s", buf.String())
	}
}

// TestWriteManyValues writes 30,000 values of one property of one
// subject (json-gold's from-RDF conversion compared each new value with
// all the previous ones: 16,000 values took 10 s) and reads them back.
func TestWriteManyValues(t *testing.T) {
	var quads []rdf.Quad
	s, p := rdf.NewIRI("http://example.org/s"), rdf.NewIRI("http://example.org/p")
	for i := range 30000 {
		quads = append(quads, rdf.Quad{S: s, P: p, O: rdf.NewString("v" + strconv.Itoa(i))})
		if i%2 == 0 {
			quads = append(quads, rdf.Quad{S: s, P: rdf.NewIRI(rdf.RDFType), O: rdf.NewIRI("http://example.org/T" + strconv.Itoa(i))})
		}
	}
	var buf bytes.Buffer
	d := buildDataset(quads, nil)
	if err := Write(&buf, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back := rdf.NewDataset()
	if err := Parse(bytes.NewReader(buf.Bytes()), back, Options{}); err != nil {
		t.Fatal(err)
	}
	if back.Len() != d.Len() {
		t.Errorf("read back %d quads, want %d", back.Len(), d.Len())
	}
}

// TestWriteContext: a cancelled context stops WriteContext before it
// writes anything.
func TestWriteContext(t *testing.T) {
	var quads []rdf.Quad
	for i := range 10000 {
		quads = append(quads, rdf.Quad{S: rdf.NewIRI("http://example.org/s" + strconv.Itoa(i)), P: rdf.NewIRI("http://example.org/p"), O: rdf.NewString("v")})
	}
	d := buildDataset(quads, nil)
	ctx, cancel := gocontext.WithCancel(gocontext.Background())
	cancel()
	for _, form := range []Form{Expanded, Compacted} {
		var buf bytes.Buffer
		if err := WriteContext(ctx, &buf, d, WriteOptions{Form: form}); !errors.Is(err, gocontext.Canceled) || buf.Len() != 0 {
			t.Errorf("%v: err = %v, %d bytes written", form, err, buf.Len())
		}
	}
}
