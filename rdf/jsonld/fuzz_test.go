package jsonld

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// fuzzOptions keeps fuzzing fast and offline.
func fuzzOptions() Options {
	return Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 1 << 16, MaxDepth: 64, MaxQuads: 10000}}}
}

// addSeeds adds the files matching pattern under the JSON-LD suite.
func addSeeds(f *testing.F, pattern string) {
	for _, data := range seedFiles(f, pattern) {
		f.Add(data)
	}
}

// seedFiles returns the contents of the files matching pattern under the
// JSON-LD suite, in lexical order.
func seedFiles(f *testing.F, pattern string) [][]byte {
	files, err := filepath.Glob(filepath.Join(shared.MustPath(f, "conformance", "jsonld"), pattern))
	if err != nil {
		f.Fatal(err)
	}
	out := make([][]byte, len(files))
	for i, name := range files {
		if out[i], err = os.ReadFile(name); err != nil {
			f.Fatal(err)
		}
	}
	return out
}

// checkQuads verifies the shape of every quad a reader produced.
func checkQuads(t *testing.T, quads []rdf.Quad) {
	for _, q := range quads {
		if (!q.S.IsIRI() && !q.S.IsBlank()) || (!q.P.IsIRI() && !q.P.IsBlank()) || q.O.IsZero() ||
			q.G.IsLiteral() || (q.O.IsLiteral() && q.O.Datatype == "") {
			t.Fatalf("malformed quad %v", q)
		}
	}
}

// checkError fails on an error that reveals a panic caught in the
// processor (a bug, not bad input), and on one without a position in data
// or whose line and column are not those of its byte offset.
func checkError(t *testing.T, err error, data []byte) {
	var je *Error
	if errors.As(err, &je) && strings.HasPrefix(je.Msg, "internal error in the JSON-LD processor") {
		t.Fatalf("panic in the processor: %v", err)
	}
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line < 1 || pe.Offset < 0 || pe.Offset > int64(len(data)) {
		t.Fatalf("error without a position in the input: %#v", err)
	}
	if !utf8.Valid(data) {
		return // columns count code points
	}
	line, col := 1, 1
	for i, c := range data[:pe.Offset] {
		switch {
		case c == '\n':
			line, col = line+1, 1
		case c&0xC0 != 0x80 && !(i == 0 && bytes.HasPrefix(data, []byte("\xef\xbb\xbf"))):
			col++ // a new code point; a byte order mark is none
		}
	}
	if line != pe.Line || col != pe.Column {
		t.Fatalf("%v: offset %d is at %d:%d", err, pe.Offset, line, col)
	}
}

// parseChecked reads data with parse (Parse or ParseHTML) under
// fuzzOptions and checks the error, or else the quads; it reports whether
// data was read.
func parseChecked(t *testing.T, data []byte, parse func(io.Reader, rdf.Sink, Options) error) (*rdf.Dataset, bool) {
	d := rdf.NewDataset()
	if err := parse(bytes.NewReader(data), d, fuzzOptions()); err != nil {
		checkError(t, err, data)
		return nil, false
	}
	checkQuads(t, d.Quads())
	return d, true
}

func FuzzParseJSONLD(f *testing.F) {
	addSeeds(f, "toRdf/*-in.jsonld")
	f.Add([]byte(`{"@context": "https://schema.org", "@type": "Event", "name": "x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, ok := parseChecked(t, data, Parse)
		if !ok {
			return
		}
		// What was read can be written and read back to as many quads.
		var buf bytes.Buffer
		if err := Write(&buf, d, WriteOptions{}); err != nil {
			t.Fatalf("write: %v", err)
		}
		back := rdf.NewDataset()
		if err := Parse(&buf, back, Options{}); err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.String())
		}
		if back.Len() != d.Len() {
			t.Fatalf("round trip: %d quads, then %d\n%s", d.Len(), back.Len(), buf.String())
		}
	})
}

func FuzzParseHTML(f *testing.F) {
	addSeeds(f, "html/*-in.html")
	f.Add([]byte(`<script type="application/ld+json">{"@id": "_:a", "http://x/p": 1}</script><base href="http://x/">`))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseChecked(t, data, ParseHTML)
	})
}

// FuzzParseJSONLDOptions reads documents under the options that change the
// algorithms (json-ld-1.0 mode, rdfDirection, generalized RDF, DropInvalid,
// Strict): no panic, well-formed quads, and the same output twice.
func FuzzParseJSONLDOptions(f *testing.F) {
	for i, data := range seedFiles(f, filepath.Join("toRdf", "*-in.jsonld")) {
		// The first byte selects the options: cycle through them.
		f.Add(append([]byte{byte(i % 64)}, data...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		opts := fuzzOptions()
		bits := data[0]
		data = data[1:]
		if bits&1 != 0 {
			opts.ProcessingMode = JSONLD10
		}
		switch bits >> 1 & 3 {
		case 1:
			opts.RDFDirection = I18nDatatype
		case 2:
			opts.RDFDirection = CompoundLiteral
		case 3:
			opts.RDFDirection = NullDirection
		}
		opts.GeneralizedRDF = bits&8 != 0
		opts.DropInvalid = bits&16 != 0
		opts.Strict = bits&32 != 0
		opts.Base = "http://example.org/base/doc"
		read := func() ([]rdf.Quad, error) {
			var quads []rdf.Quad
			err := Parse(bytes.NewReader(data), rdf.SinkFunc(func(q rdf.Quad) error {
				quads = append(quads, q)
				return nil
			}), opts)
			return quads, err
		}
		first, err := read()
		if err != nil {
			checkError(t, err, data)
		} else {
			checkQuads(t, first)
		}
		second, err2 := read()
		if (err == nil) != (err2 == nil) || len(first) != len(second) {
			t.Fatalf("two readings differ: %v, %d quads; %v, %d quads", err, len(first), err2, len(second))
		}
		for i := range first {
			if first[i] != second[i] {
				t.Fatalf("two readings differ at quad %d: %v; %v", i, first[i], second[i])
			}
		}
	})
}
