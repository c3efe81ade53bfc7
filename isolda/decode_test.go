package isolda

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
)

// TestDecodeErrors checks that malformed documents fail with a position and
// a message saying what was expected.
func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		doc        string
		line, col  int
		msgContain string
	}{
		{"@vocab http://schema.org/\n\nPerson[1]{name}\n", 3, 16, "expected ':'"},
		{"@vocab http://schema.org/\n\nPerson[x]{name}:\n", 3, 8, "number of rows"},
		{"@vocab http://schema.org/\n\nPerson[1]{name, }:\n  a,\n", 3, 17, "expected a term"},
		{"@vocab http://schema.org/\n\nPerson[1]{name, age}:\n  a\n", 4, 3, "expected 2 cells, found 1"},
		{"@vocab http://schema.org/\n\nPerson[2]{name}:\n  a\n", 3, 1, "declares 2 rows but 1 follow"},
		{"@vocab http://schema.org/\n\nPerson[1]{name, knows}:\n  a, [3] x | y\n", 4, 6, "announces 3 values but 2 follow"},
		{"@vocab http://schema.org/\n\nPerson[1]{name}:\n  \"abc\n", 4, 7, "unterminated quoted string"},
		{"@vocab http://schema.org/\n\nPerson[1]{name}:\n  \"a\\qb\"\n", 4, 5, "invalid escape"},
		{"Person[1]{name}:\n  a\n", 1, 1, "without @vocab"},
		{"@vocab http://schema.org/\n\nPerson[1]{age:foo}:\n", 3, 15, "unknown datatype"},
		{"@vocab http://schema.org/\n\nPerson[1]{name@}:\n", 3, 16, "language tag"},
		{"@bogus x\n", 1, 1, "expected a directive"},
		{"~nope:\n", 1, 1, "expected ~extra: or ~in:"},
		{"  a, b\n", 1, 1, "unexpected indented line"},
		{"@vocab http://schema.org/\n~extra:\n    name: x\n", 3, 5, "expected an entity id line"},
		{"@vocab http://schema.org/\n\nPerson[1]{name, @iri}:\n  a, <x\n", 4, 6, ""},
		{"@vocab http://schema.org/\nPerson[1]{name, @iri}:\n  a, ex:a\nThing_[1]{id, @iri}:\n  a, ex:b\n", 5, 3, "already used"},
		{"@vocab http://schema.org/\nPerson[1]{id}:\n  \"\\ud800\"\n", 3, 4, "surrogate"},
		{"@vocab http://schema.org/\nPerson[1]{@iri, name}:\n  , x\n", 3, 3, "expected the entity id"},
		{"@vocab http://schema.org/\nPerson[1]{@iri, @iri}:\n", 2, 17, "already the first column"},
		{"@vocab http://schema.org/\nPerson[1]{@iri}:\n  [2] a | b\n", 3, 3, "not a list"},
		{"@isolda 0.9\n", 1, 9, "expected @isolda 0.1, 0.2, 0.3 or 0.4"},
	}
	for _, c := range cases {
		_, err := DecodeWith(strings.NewReader(c.doc), DecodeOptions{File: "doc.isolda"})
		if c.msgContain == "" {
			// Accepted ("<x" is a valid bare IRI cell) or refused anywhere.
			if err != nil && !errors.As(err, new(*rdf.ParseError)) {
				t.Errorf("%q: got %v, want a *rdf.ParseError", c.doc, err)
			}
			continue
		}
		perrtest.At(t, err, "doc.isolda", c.line, c.col, c.msgContain, "%q", c.doc)
	}
}

// TestDecodeLimits checks the size, quad and line limits.
func TestDecodeLimits(t *testing.T) {
	doc := "@vocab http://schema.org/\n\nThing_[2]{id, name}:\n  a, x\n  b, y\n"
	for _, lim := range []rdf.Limits{{MaxBytes: 20}, {MaxQuads: 1}, {MaxTermLength: 1}} {
		lim2 := lim
		if lim.MaxTermLength == 1 {
			doc2 := "@vocab http://schema.org/\n" + strings.Repeat("#", 3000) + "\n"
			if _, err := DecodeWith(strings.NewReader(doc2), DecodeOptions{Limits: lim2}); !errors.Is(err, rdf.ErrLimit) {
				t.Errorf("limit %+v: long line gives %v, want an error wrapping rdf.ErrLimit", lim, err)
			}
			continue
		}
		// errors.Is: the server answers 413 for a limit, 400 for a syntax error.
		if _, err := DecodeWith(strings.NewReader(doc), DecodeOptions{Limits: lim2}); !errors.Is(err, rdf.ErrLimit) || !strings.HasSuffix(err.Error(), "(limit exceeded)") {
			t.Errorf("limit %+v gives %v, want an error wrapping rdf.ErrLimit", lim, err)
		}
	}
	if _, err := Decode(strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeIgnoresRedundantSections checks that @types and ~in are ignored.
func TestDecodeIgnoresRedundantSections(t *testing.T) {
	doc := "@vocab http://schema.org/\n@types Person 1\n\nPerson[1]{name}:\n  Ann\n\n~in:\n  Ann:\n    knows< Bob | Carl\n"
	d, err := Decode(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 2 {
		t.Fatalf("got %d quads, want 2", d.Len())
	}
}

// FuzzDecode checks that the decoder never panics or hangs, and that what
// it accepts re-encodes and decodes isomorphically.
func FuzzDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 30; i++ {
		d := genGraph(r, i%2 == 0)
		for _, o := range []Options{{Version: V02}, {Version: V01}, {Version: V02, Layout: LayoutBlocks}, {Version: V02, Continuation: true},
			{Version: V02, InverseIndex: true, Glossary: GlossaryNone}, {Version: V01, Glossary: GlossaryNone}, {Version: V02, InlineBlanks: true},
			{Version: V03}, {Version: V03, Glossary: GlossaryNone, Layout: LayoutBlocks}, {Version: V02, IRIIDs: true, InlineBlanks: true},
			{Version: V04}, {Version: V04, Glossary: GlossaryNone}, {Version: V04, InverseIndex: true}} {
			var b bytes.Buffer
			if err := Encode(&b, d, o); err == nil {
				f.Add(b.String())
			}
		}
	}
	for i := 0; i < 20; i++ {
		d := genListGraph(rand.New(rand.NewPCG(uint64(i), 7)))
		for _, o := range []Options{{Version: V03}, {Version: V03, InlineBlanks: true, Glossary: GlossaryNone}, {Version: V04}} {
			var b bytes.Buffer
			if err := Encode(&b, d, o); err == nil {
				f.Add(b.String())
			}
		}
	}
	f.Add("@vocab http://schema.org/\n\nPerson[1]{name, @iri, knows>}:\n  \"a\\u00e9\", \"urn:x\", [2] b | @c\n~extra:\n  b:\n    a: Person\n")
	f.Fuzz(func(t *testing.T, doc string) {
		d, err := DecodeWith(strings.NewReader(doc), DecodeOptions{Limits: rdf.Limits{MaxBytes: 1 << 20, MaxQuads: 1 << 14}})
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *rdf.ParseError: %v", err)
			}
			return
		}
		for _, v := range versions {
			res, err := Check(d, Options{Version: v})
			if err != nil {
				return // e.g. an IRI in a predicate position that is not valid RDF
			}
			if !res.Isomorphic {
				t.Fatalf("decoded dataset does not round-trip (%s): missing %v extra %v", v, res.Missing, res.Extra)
			}
		}
	})
}

// TestDecodeCRLF checks that CRLF line ends decode like LF.
func TestDecodeCRLF(t *testing.T) {
	for seed := 0; seed < 50; seed++ {
		d := genGraph(rand.New(rand.NewPCG(uint64(seed), 3)), true)
		var b bytes.Buffer
		if err := Encode(&b, d, Options{}); err != nil {
			t.Fatal(err)
		}
		crlf := strings.ReplaceAll(b.String(), "\n", "\r\n")
		got, err := Decode(strings.NewReader(crlf))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if iso, err := canon.Isomorphic(d, got); err != nil || !iso {
			t.Fatalf("seed %d: CRLF document does not decode to the input (%v)", seed, err)
		}
	}
}
