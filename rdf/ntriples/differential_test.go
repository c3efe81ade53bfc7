package ntriples

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	gonum "gonum.org/v1/gonum/graph/formats/rdf"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

// gonumTerm converts a term decoded by gonum's independent (Ragel-made)
// N-Quads parser into an rdf.Term.
func gonumTerm(t gonum.Term) (rdf.Term, error) {
	if t.Value == "" {
		return rdf.Term{}, nil
	}
	text, qual, kind, err := t.Parts()
	if err != nil {
		return rdf.Term{}, err
	}
	switch kind {
	case gonum.IRI:
		return rdf.NewIRI(text), nil
	case gonum.Blank:
		return rdf.NewBlank(text), nil
	case gonum.Literal:
		switch {
		case strings.HasPrefix(qual, "@"):
			return rdf.NewLangString(text, qual[1:]), nil
		default:
			return rdf.NewLiteral(text, qual), nil
		}
	}
	return rdf.Term{}, fmt.Errorf("term %q of unknown kind", t.Value)
}

// gonumDiffers lists the files where gonum's reading is wrong, with the
// object this package must read instead.
var gonumDiffers = map[string]struct {
	object rdf.Term
	reason string
}{
	"turtle/test-38.nt": {rdf.NewString("\U00010469"),
		`an escaped UTF-16 surrogate pair \uD801\uDC69: this package combines it into U+10469 (with a warning), gonum decodes each half to U+FFFD`},
}

// compareWithGonum parses data with this package and with gonum and
// reports the first difference.
func compareWithGonum(data []byte, syntax Syntax) (int, error) {
	var ours []rdf.Quad
	if err := Parse(bytes.NewReader(data), syntax, rdf.SinkFunc(func(q rdf.Quad) error {
		ours = append(ours, q)
		return nil
	}), rdf.ReadOptions{}); err != nil {
		return 0, err
	}
	theirs, ok := gonumQuads(data)
	if !ok {
		return 0, fmt.Errorf("gonum rejects the input")
	}
	for i := range min(len(ours), len(theirs)) {
		if ours[i] != theirs[i] {
			return i, fmt.Errorf("statement %d:\n ours:  %#v\n gonum: %#v", i+1, ours[i], theirs[i])
		}
	}
	if len(ours) != len(theirs) {
		return 0, fmt.Errorf("read %d statements, gonum %d", len(ours), len(theirs))
	}
	return len(ours), nil
}

// TestDifferentialGonum compares the quads read from every RDF 1.1 input
// of the W3C suites that both parsers accept (the N-Triples and N-Quads
// positive tests and the expected results of the Turtle, TriG, RDF/XML
// and canonicalization suites) and the first 100,000 lines of Nomisma.
func TestDifferentialGonum(t *testing.T) {
	root := shared.MustPath(t, "conformance")
	files, statements := 0, 0
	for _, dir := range []string{"ntriples", "nquads", "turtle", "trig", "rdfxml", "rdf-canon"} {
		err := walkQuadFiles(root, dir, func(rel string, data []byte, syntax Syntax) error {
			if Parse(bytes.NewReader(data), syntax, rdf.SinkFunc(func(rdf.Quad) error { return nil }), rdf.ReadOptions{Strict: true}) != nil {
				return nil // a negative test: the conformance test covers it
			}
			n, err := compareWithGonum(data, syntax)
			if want, ok := gonumDiffers[rel]; ok {
				// Check this package's reading of the file against the
				// value worked out by hand instead.
				var got []rdf.Quad
				if err := Parse(bytes.NewReader(data), syntax, rdf.SinkFunc(func(q rdf.Quad) error {
					got = append(got, q)
					return nil
				}), rdf.ReadOptions{}); err != nil || len(got) != 1 || got[0].O != want.object {
					t.Errorf("%s: got %v (%v), want object %v", rel, got, err, want.object)
				}
				if err == nil {
					t.Errorf("%s: gonum now agrees (%s): remove it from gonumDiffers", rel, want.reason)
				}
				line := fmt.Sprintf("gonum differential: %s differs as expected: %s", rel, want.reason)
				t.Log(line)
				return nil
			}
			if err != nil {
				t.Errorf("%s: %v", rel, err)
			}
			files++
			statements += n
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	var head bytes.Buffer
	sc := bufio.NewScanner(openNomisma(t))
	sc.Buffer(nil, 1<<20)
	for i := 0; i < 100000 && sc.Scan(); i++ {
		head.Write(sc.Bytes())
		head.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	n, err := compareWithGonum(head.Bytes(), NTriples)
	if err != nil {
		t.Errorf("nomisma: %v", err)
	}
	line := fmt.Sprintf("gonum differential: %d W3C files (%d statements) and %d Nomisma triples read identically", files, statements, n)
	t.Log(line)
}

// FuzzDifferentialGonum checks that whenever both this package and gonum
// accept an N-Quads document, they read the same quads. Inputs with a CR
// are left out: gonum does not end comments at a lone CR (N-Quads' EOL is
// [#xD#xA]+), so "#c\r<a:> <b:> <c:> ." has a statement only here.
func FuzzDifferentialGonum(f *testing.F) {
	addSeeds(f, ".nq")
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.IndexByte(data, '\r') >= 0 {
			return
		}
		var ours []rdf.Quad
		if Parse(bytes.NewReader(data), NQuads, rdf.SinkFunc(func(q rdf.Quad) error {
			ours = append(ours, q)
			return nil
		}), rdf.ReadOptions{}) != nil {
			return
		}
		theirs, ok := gonumQuads(data)
		if !ok {
			return
		}
		if len(ours) != len(theirs) {
			t.Fatalf("read %d quads, gonum %d", len(ours), len(theirs))
		}
		for i := range ours {
			if ours[i] != theirs[i] {
				t.Fatalf("quad %d:\n ours:  %#v\n gonum: %#v", i, ours[i], theirs[i])
			}
		}
	})
}

// gonumQuads reads data with gonum; ok is false when gonum rejects it (or
// panics, which its unescaping does on some malformed input).
func gonumQuads(data []byte) (qs []rdf.Quad, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	dec := gonum.NewDecoder(bytes.NewReader(data))
	for {
		st, err := dec.Unmarshal()
		if err == io.EOF {
			return qs, true
		}
		if err != nil {
			return nil, false
		}
		var q rdf.Quad
		for i, t := range []gonum.Term{st.Subject, st.Predicate, st.Object, st.Label} {
			gt, err := gonumTerm(t)
			if err != nil {
				return nil, false
			}
			*[]*rdf.Term{&q.S, &q.P, &q.O, &q.G}[i] = gt
		}
		qs = append(qs, q)
	}
}
