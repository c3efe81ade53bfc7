package rdfxml

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/isolda/isolda/rdf"
)

// utf16LE encodes s as UTF-16, little-endian, with a byte order mark.
func utf16LE(s string) string {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// Offsets count bytes of the input as it is: a byte order mark, two or
// four bytes per character of UTF-16, one per character of ISO-8859-1,
// while columns count characters. The expected values are counted by hand
// (head is 99 ASCII characters).
func TestErrorOffsetsInEncodings(t *testing.T) {
	const decl = `<?xml version="1.0" encoding="ISO-8859-1"?>` // 43 characters
	cases := []struct {
		name, doc string
		line, col int
		off       int64
	}{
		{"UTF-8 byte order mark", "\xEF\xBB\xBF" + head + "<zz:T/></rdf:RDF>", 1, 100, 3 + 99},
		{"UTF-8 beyond ASCII", head + "<ex:T ex:a='é😀'/><zz:T/></rdf:RDF>", 1, 117, 99 + 12 + 2 + 4 + 3},
		{"UTF-16", utf16LE(head + "<ex:T ex:a='é😀'/><zz:T/></rdf:RDF>"), 1, 117, 2 + 2*(99+12) + 2 + 4 + 2*3},
		{"UTF-16 after a line break", utf16LE(head + "\n<ex:T ex:a='é😀'/>\n <zz:T/></rdf:RDF>"), 3, 2, 2 + 2*(99+1+12) + 2 + 4 + 2*(3+1+1)},
		{"ISO-8859-1", decl + head + "<ex:T ex:a='\xfc\xfc'/><zz:T/></rdf:RDF>", 1, 43 + 99 + 12 + 2 + 3 + 1, 43 + 99 + 12 + 2 + 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseString(t, c.doc, rdf.ReadOptions{File: "in.rdf"})
			var pe *rdf.ParseError
			if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "undeclared namespace prefix") {
				t.Fatalf("want an undeclared prefix error, got %v", err)
			}
			if pe.Line != c.line || pe.Column != c.col || pe.Offset != c.off {
				t.Errorf("got %d:%d offset %d, want %d:%d offset %d", pe.Line, pe.Column, pe.Offset, c.line, c.col, c.off)
			}
		})
	}
}

// Warnings locate the attribute the problem is written in: an IRI in
// rdf:resource, a language tag in the xml:lang of an ancestor.
func TestWarningOffsets(t *testing.T) {
	doc := head + "\n<ex:T xml:lang='en_US'>\n <ex:p>x</ex:p>\n <ex:q  rdf:resource='http://x/a b'/></ex:T></rdf:RDF>"
	var got []*rdf.ParseError
	_, err := parseString(t, doc, rdf.ReadOptions{Warn: func(e *rdf.ParseError) { got = append(got, e) }})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line, col int
		off       int64
		msg       string
	}{
		{2, 7, 99 + 1 + 6, "en_US"},
		{4, 9, 99 + 1 + 24 + 16 + 8, "a b"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d warnings %v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		if e := got[i]; e.Line != w.line || e.Column != w.col || e.Offset != w.off || !strings.Contains(e.Msg, w.msg) {
			t.Errorf("warning %d: %v (offset %d), want %d:%d offset %d about %q", i, e, e.Offset, w.line, w.col, w.off, w.msg)
		}
	}
}

// A byte limit error is at the limit.
func TestLimitErrorOffset(t *testing.T) {
	doc := head + "<ex:T ex:a='" + strings.Repeat("x", 1000) + "'/></rdf:RDF>"
	_, err := parseString(t, doc, rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 500}})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, rdf.ErrLimit) || pe.Offset != 500 || pe.Column != 501 {
		t.Fatalf("got %v (offset %d), want a limit error at offset 500", err, pe.Offset)
	}
}
