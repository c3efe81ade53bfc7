package rdfio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

func TestFormatFromName(t *testing.T) {
	cases := map[string]Format{
		"a.ttl": Turtle, "b.nt.gz": NTriples, "c.NQ": NQuads, "d.trig": TriG, "e.rdf": RDFXML,
		"f.owl": RDFXML, "g.jsonld": JSONLD, "h.html": HTML, "i.json": JSONLD,
	}
	for name, want := range cases {
		if got, ok := FormatFromName(name); !ok || got != want {
			t.Errorf("FormatFromName(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	if _, ok := FormatFromName("noext"); ok {
		t.Error("a name without extension must not give a format")
	}
}

func TestSniff(t *testing.T) {
	cases := map[string]Format{
		`{"@context": {}}`:                       JSONLD,
		"\ufeff  [ {\"@id\": \"x\"} ]":           JSONLD,
		"<!DOCTYPE html><html></html>":           HTML,
		"<?xml version=\"1.0\"?>\n<rdf:RDF/>":    RDFXML,
		"<?xml version=\"1.0\"?>\n<html></html>": HTML,
		"@prefix ex: <http://e/> .":              TriG,
		"<http://a> <http://b> <http://c> .":     TriG,
	}
	for in, want := range cases {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSniffedReadsAgree reads the same graph written in every syntax, once
// with the format named and once sniffed from the content, and requires the
// same dataset each time.
func TestSniffedReadsAgree(t *testing.T) {
	src := `@prefix ex: <http://example.org/> .
ex:a ex:p "x"@en, 1, ex:b ; ex:q [ ex:r "y" ] .`
	want, err := Read(strings.NewReader(src), Options{Format: Turtle})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"nquads", "ntriples", "turtle", "trig", "jsonld", "rdfxml"} {
		var buf bytes.Buffer
		if err := Write(&buf, want, f, WriteOptions{}); err != nil {
			t.Fatalf("write %s: %v", f, err)
		}
		got, err := Read(bytes.NewReader(buf.Bytes()), Options{})
		if err != nil {
			t.Fatalf("sniffed read of %s output: %v\n%s", f, err, buf.String())
		}
		iso, err := canon.Isomorphic(want, got)
		if err != nil || !iso {
			t.Errorf("%s: sniffed read not isomorphic (err %v)\n%s", f, err, buf.String())
		}
	}
}

// TestSharedDataConverts is the RDF layer's acceptance over real data: every
// file in ../shared/data/examples and data/big reads, and converting it to
// every syntax and reading that back gives an isomorphic dataset; the two
// syntaxes of the big graph give isomorphic datasets.
func TestSharedDataConverts(t *testing.T) {
	dir := shared.MustPath(t, "data", "examples")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var n int
	for _, path := range files {
		if _, ok := FormatFromName(path); !ok {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			d, err := ReadFile(path, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Len() == 0 {
				t.Fatal("no quads")
			}
			for _, f := range []string{"nquads", "turtle", "trig", "jsonld", "jsonld-compact", "rdfxml"} {
				var buf bytes.Buffer
				if err := Write(&buf, d, f, WriteOptions{}); err != nil {
					if f == "rdfxml" {
						t.Logf("%s: rdfxml cannot hold this graph: %v", path, err)
						continue
					}
					t.Fatalf("write %s: %v", f, err)
				}
				format := f
				if f == "jsonld-compact" {
					format = "jsonld"
				}
				back, err := Read(&buf, Options{Format: Format(format)})
				if err != nil {
					t.Fatalf("read back %s: %v", f, err)
				}
				iso, err := canon.Isomorphic(d, back)
				if err != nil || !iso {
					t.Errorf("%s: round trip through %s not isomorphic (err %v)", filepath.Base(path), f, err)
				}
			}
		})
	}
	// Counts from the data README (rdflib 6.1.1).
	wantCounts := map[string]int{
		"html-schemaorg-songkick-years-and-years-tour-events.html": 378,
		"wikidata-L691820-lexeme.ttl":                              368,
		"lod-datagovuk-reference-intervals.ttl":                    1091,
	}
	for name, want := range wantCounts {
		d, err := ReadFile(filepath.Join(dir, name), nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Len() != want {
			t.Errorf("%s: %d quads, the data README says %d", name, d.Len(), want)
		}
	}
	if n < 3 {
		t.Fatalf("only %d example files found", n)
	}
}

func TestBigSyntaxesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 757k triples twice; run without -short")
	}
	dir := shared.MustPath(t, "data", "big")
	ttl, err := ReadFile(filepath.Join(dir, "nomisma.ttl"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	nt, err := ReadFile(filepath.Join(dir, "nomisma.nt.gz"), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const want = 756972 // the data README's count, agreed by every peer
	if ttl.Len() != want || nt.Len() != want {
		t.Fatalf("quads: turtle %d, n-triples %d, want %d", ttl.Len(), nt.Len(), want)
	}
	iso, err := canon.Isomorphic(ttl, nt)
	if err != nil || !iso {
		t.Fatalf("Turtle and N-Triples of Nomisma not isomorphic (err %v)", err)
	}
}

func TestReadFileErrorsNameTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.ttl")
	if err := os.WriteFile(path, []byte("@prefix ex: <http://e/> .\nex:a ex:b ex:c ;\n  ex:d \"unterminated .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, nil, Options{})
	var pe *rdf.ParseError
	if err == nil || !asParseError(err, &pe) {
		t.Fatalf("want a ParseError, got %v", err)
	}
	if pe.File != path || pe.Line != 3 {
		t.Errorf("error %q: want file %s line 3", err, path)
	}
}

func asParseError(err error, target **rdf.ParseError) bool {
	return errors.As(err, target)
}
