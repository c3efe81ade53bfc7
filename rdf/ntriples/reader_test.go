package ntriples

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/grammar"
)

func parseAll(t *testing.T, src string, syntax Syntax, opts rdf.ReadOptions) ([]rdf.Quad, error) {
	t.Helper()
	var qs []rdf.Quad
	err := Parse(strings.NewReader(src), syntax, rdf.SinkFunc(func(q rdf.Quad) error {
		qs = append(qs, q)
		return nil
	}), opts)
	return qs, err
}

const (
	ex = "http://example.org/"
)

func iri(s string) rdf.Term { return rdf.NewIRI(ex + s) }

// TestParseTerms checks the terms read from hand-written statements against
// values worked out from the N-Triples grammar.
func TestParseTerms(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want rdf.Term // the object
	}{
		{"iri", `<http://example.org/s> <http://example.org/p> <http://example.org/o> .`, iri("o")},
		{"iri escapes", `<http://example.org/s> <http://example.org/p> <http://example.org/\u0041\U00000042é> .`, iri("ABé")},
		{"iri non-ASCII", `<http://example.org/s> <http://example.org/p> <http://example.org/Αθήνα> .`, iri("Αθήνα")},
		{"blank", `<http://example.org/s> <http://example.org/p> _:b1 .`, rdf.NewBlank("b1")},
		{"blank dots", `<http://example.org/s> <http://example.org/p> _:a.b.c.`, rdf.NewBlank("a.b.c")},
		{"blank digit start", `<http://example.org/s> <http://example.org/p> _:0-x_y·.`, rdf.NewBlank("0-x_y·")},
		{"blank unicode", `<http://example.org/s> <http://example.org/p> _:ébène‿x .`, rdf.NewBlank("ébène‿x")},
		{"simple literal", `<http://example.org/s> <http://example.org/p> "x" .`, rdf.NewString("x")},
		{"empty literal", `<http://example.org/s> <http://example.org/p> "" .`, rdf.NewString("")},
		{"echar", `<http://example.org/s> <http://example.org/p> "\t\b\n\r\f\"\'\\" .`, rdf.NewString("\t\b\n\r\f\"'\\")},
		{"uchar", `<http://example.org/s> <http://example.org/p> "\u00e9\U0001F600" .`, rdf.NewString("é😀")},
		{"surrogate pair", `<http://example.org/s> <http://example.org/p> "\uD83D\uDE00" .`, rdf.NewString("😀")},
		{"raw UTF-8", `<http://example.org/s> <http://example.org/p> "Αθήνα ﷺ" .`, rdf.NewString("Αθήνα ﷺ")},
		{"lang", `<http://example.org/s> <http://example.org/p> "chat"@fr .`, rdf.NewLangString("chat", "fr")},
		{"lang kept as written", `<http://example.org/s> <http://example.org/p> "x"@EN-gb-x-Foo1 .`, rdf.NewLangString("x", "EN-gb-x-Foo1")},
		{"lang space", `<http://example.org/s> <http://example.org/p> "x" @en .`, rdf.NewLangString("x", "en")},
		{"lang dir ltr", `<http://example.org/s> <http://example.org/p> "x"@en--ltr .`,
			rdf.Term{Kind: rdf.LiteralKind, Value: "x", Datatype: rdf.RDFDirLangString, Lang: "en", Dir: "ltr"}},
		{"lang dir rtl", `<http://example.org/s> <http://example.org/p> "x"@ar-EG--rtl.`,
			rdf.Term{Kind: rdf.LiteralKind, Value: "x", Datatype: rdf.RDFDirLangString, Lang: "ar-EG", Dir: "rtl"}},
		{"typed", `<http://example.org/s> <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`, rdf.NewLiteral("1", rdf.XSDInteger)},
		{"typed spaces", `<http://example.org/s> <http://example.org/p> "1" ^^ <http://www.w3.org/2001/XMLSchema#integer> .`, rdf.NewLiteral("1", rdf.XSDInteger)},
		{"xsd:string", `<http://example.org/s> <http://example.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#string> .`, rdf.NewString("1")},
		{"no spaces", `<http://example.org/s><http://example.org/p>"x"^^<http://example.org/d>.`, rdf.NewLiteral("x", ex+"d")},
		{"tabs and comment", "\t<http://example.org/s>\t<http://example.org/p>\t\"x\"\t.\t# c", rdf.NewString("x")},
		{"comment no space", `<http://example.org/s> <http://example.org/p> "x".#c`, rdf.NewString("x")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := parseAll(t, tc.src, NTriples, rdf.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(qs) != 1 {
				t.Fatalf("got %d quads, want 1", len(qs))
			}
			want := rdf.Quad{S: iri("s"), P: iri("p"), O: tc.want}
			if qs[0] != want {
				t.Errorf("got  %#v\nwant %#v", qs[0], want)
			}
		})
	}
}

// TestLineEndings checks LF, CR LF, lone CR, blank lines, a byte order
// mark and a last line without a terminator, and the line numbers of the
// errors that follow them.
func TestLineEndings(t *testing.T) {
	st := "<http://example.org/s> <http://example.org/p> <http://example.org/o> ."
	src := "\ufeff" + st + "\n" + st + "\r\n\r\n" + st + "\r" + st + "\n\n# c\r" + st
	qs, err := parseAll(t, src, NTriples, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 5 {
		t.Fatalf("got %d quads, want 5", len(qs))
	}
	// Lines: 1 st, 2 st (CRLF), 3 empty (CRLF), 4 st (CR), 5 st, 6 empty,
	// 7 comment (CR), 8 st, 9 the bad one.
	_, err = parseAll(t, src+"\nbad", NTriples, rdf.ReadOptions{File: "f.nt"})
	checkPos(t, err, "f.nt", 9, 1, "expected a subject")

	// A file with only CR line ends is read line by line, not as one
	// line: 1.4 MB passes a limit of about 66 kB per line.
	crOnly := strings.Repeat(st+"\r", 20000) + "bad"
	qs, err = parseAll(t, crOnly, NTriples, rdf.ReadOptions{File: "cr.nt", Limits: rdf.Limits{MaxTermLength: 100}})
	checkPos(t, err, "cr.nt", 20001, 1, "expected a subject")
	if len(qs) != 20000 {
		t.Errorf("CR-only file: got %d quads, want 20000", len(qs))
	}

	// Mixed line ends over many buffer fills, read whole and a byte at a
	// time: the line of the error counts CR LF as one line end and every
	// other CR or LF as one.
	var b strings.Builder
	ends := []string{"\n", "\r\n", "\r", "\r\r\n", "\n\r"}
	for i := range 30000 {
		b.WriteString(st + ends[i*7%len(ends)])
	}
	mixed := b.String()
	line := 1 + strings.Count(mixed, "\r\n") + strings.Count(strings.ReplaceAll(mixed, "\r\n", ""), "\r") +
		strings.Count(strings.ReplaceAll(mixed, "\r\n", ""), "\n")
	for _, src := range []io.Reader{strings.NewReader(mixed + "bad"), iotest.OneByteReader(strings.NewReader(mixed + "bad"))} {
		n := 0
		err := Parse(src, NTriples, rdf.SinkFunc(func(rdf.Quad) error { n++; return nil }), rdf.ReadOptions{File: "m.nt"})
		checkPos(t, err, "m.nt", line, 1, "expected a subject")
		if n != 30000 {
			t.Errorf("mixed line ends: got %d quads, want 30000", n)
		}
	}
}

func checkPos(t *testing.T, err error, file string, line, col int, msg string) {
	t.Helper()
	var perr *rdf.ParseError
	if !errors.As(err, &perr) {
		t.Fatalf("got error %v, want a *rdf.ParseError", err)
	}
	if perr.File != file || perr.Line != line || perr.Column != col || !strings.Contains(perr.Msg, msg) {
		t.Errorf("got %q (file %q line %d col %d), want file %q line %d col %d with %q",
			perr.Error(), perr.File, perr.Line, perr.Column, file, line, col, msg)
	}
}

// TestErrors checks the position and message of syntax errors on the third
// line of a document; columns count code points, so the Greek letters
// before the error count one each. The byte offset of the error is checked
// too, worked out from the column. Term defects (see TestDefects) are
// errors here, with Strict.
func TestErrors(t *testing.T) {
	head := "# header\n<http://example.org/s> <http://example.org/p> \"ok\" .\n"
	tests := []struct {
		name   string
		syntax Syntax
		line3  string
		col    int
		msg    string
	}{
		{"space in IRI", NTriples, `<http://example.org/a b> <http://example.org/p> "x" .`, 22, `' ' is not allowed in an IRI`},
		{"relative IRI", NTriples, `<s> <http://example.org/p> "x" .`, 1, `IRI "s" is not absolute`},
		{"relative predicate", NTriples, `<http://example.org/s> <p> "x" .`, 24, `IRI "p" is not absolute`},
		{"relative datatype", NTriples, `<http://example.org/s> <http://example.org/p> "x"^^<d> .`, 52, `IRI "d" is not absolute`},
		{"bad IRI escape", NTriples, `<http://example.org/\u00ZZ> <http://example.org/p> "x" .`, 21, `expected 4 hexadecimal digits`},
		{"IRI echar", NTriples, `<http://example.org/\n> <http://example.org/p> "x" .`, 21, `invalid escape \n`},
		{"IRI escaped space", NTriples, `<http://example.org/\u0020> <http://example.org/p> "x" .`, 1, "which IRIs may not contain"},
		{"unterminated IRI", NTriples, `<http://example.org/s`, 22, "unterminated IRI"},
		{"literal subject", NTriples, `"s" <http://example.org/p> "x" .`, 1, "expected a subject"},
		{"blank predicate", NTriples, `<http://example.org/s> _:p "x" .`, 24, "expected a predicate"},
		{"missing object", NTriples, `<http://example.org/s> <http://example.org/p> .`, 47, "expected an object"},
		{"number object", NTriples, `<http://example.org/s> <http://example.org/p> 12 .`, 47, "expected an object"},
		{"missing dot", NTriples, `<http://example.org/s> <http://example.org/p> "x"`, 50, "expected '.'"},
		{"two statements", NTriples, `<http://example.org/s> <http://example.org/p> "x" . <http://example.org/s> <http://example.org/p> "y" .`, 53, "one statement per line"},
		{"graph in N-Triples", NTriples, `<http://example.org/s> <http://example.org/p> "x" <http://example.org/g> .`, 51, "expected '.'"},
		{"unterminated string", NTriples, `<http://example.org/s> <http://example.org/p> "αβγ .`, 47, "unterminated string"},
		{"bad string escape", NTriples, `<http://example.org/s> <http://example.org/p> "αβ\zγ" .`, 50, `invalid escape \z`},
		{"lone surrogate", NTriples, `<http://example.org/s> <http://example.org/p> "\uD800" .`, 48, "surrogate"},
		{"escape beyond Unicode", NTriples, `<http://example.org/s> <http://example.org/p> "\U00110000" .`, 48, "beyond U+10FFFF"},
		{"bad lang", NTriples, `<http://example.org/s> <http://example.org/p> "x"@1 .`, 51, "invalid language tag"},
		{"long lang", NTriples, `<http://example.org/s> <http://example.org/p> "x"@abcdefghi .`, 51, "not well-formed BCP 47"},
		{"surrogate pair", NTriples, `<http://example.org/s> <http://example.org/p> "αβ\uD83D\uDE00" .`, 50, `write \U0001F600`},
		{"second hash", NTriples, `<http://example.org/s#a#b> <http://example.org/p> "x" .`, 1, "second \"#\""},
		{"lang underscore", NTriples, `<http://example.org/s> <http://example.org/p> "x"@en_US .`, 53, "invalid character"},
		{"bad direction", NTriples, `<http://example.org/s> <http://example.org/p> "x"@en--LTR .`, 55, "invalid base direction"},
		{"langString datatype", NTriples, `<http://example.org/s> <http://example.org/p> "x"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString> .`, 52, "needs a language tag"},
		{"single caret", NTriples, `<http://example.org/s> <http://example.org/p> "x"^<http://example.org/d> .`, 50, "expected '^^'"},
		{"blank colon", NTriples, `_:a:b <http://example.org/p> "x" .`, 4, "':' is not allowed"},
		{"blank empty", NTriples, `_: <http://example.org/p> "x" .`, 3, "invalid blank node label"},
		{"blank dash start", NTriples, `_:-a <http://example.org/p> "x" .`, 3, "invalid blank node label"},
		{"reified triple object", NTriples, `<http://example.org/s> <http://example.org/p> << <http://example.org/a> <http://example.org/b> <http://example.org/c> >> .`, 47, "expected '<<('"},
		{"triple term graph", NQuads, `<http://example.org/s> <http://example.org/p> "x" <<( <http://example.org/a> <http://example.org/b> <http://example.org/c> )>> .`, 51, "may only be an object"},
		{"literal in triple term subject", NTriples, `<http://example.org/s> <http://example.org/p> <<( "a" <http://example.org/b> <http://example.org/c> )>> .`, 51, "subject of a triple term"},
		{"quoted triple subject", NTriples, `<< <http://example.org/a> <http://example.org/b> <http://example.org/c> >> <http://example.org/p> "x" .`, 1, "may only be an object"},
		{"prefix directive", NTriples, `@prefix ex: <http://example.org/> .`, 1, "expected a subject"},
		{"quint", NQuads, `<http://example.org/s> <http://example.org/p> "x" <http://example.org/g> <http://example.org/h> .`, 74, "expected '.'"},
		{"literal graph", NQuads, `<http://example.org/s> <http://example.org/p> "x" "g" .`, 51, "a graph name or '.'"},
		{"invalid UTF-8", NTriples, "<http://example.org/s> <http://example.org/p> \"αβ\xff\" .", 50, "invalid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := parseAll(t, head+tc.line3+"\n<http://example.org/s> <http://example.org/p> \"after\" .\n", tc.syntax, rdf.ReadOptions{File: "doc.nt", Strict: true})
			checkPos(t, err, "doc.nt", 3, tc.col, tc.msg)
			var perr *rdf.ParseError
			if errors.As(err, &perr) {
				off := len(head) + len(string([]rune(tc.line3)[:min(tc.col-1, len([]rune(tc.line3)))]))
				if perr.Offset != int64(off) {
					t.Errorf("offset %d, want %d", perr.Offset, off)
				}
			}
			if len(qs) != 1 {
				t.Errorf("got %d quads before the error, want 1", len(qs))
			}
		})
	}
}

// TestTripleTermDepth checks that nested triple terms are checked to a
// bounded depth and then rejected with a limit error, not a stack overflow.
func TestTripleTermDepth(t *testing.T) {
	const depth = 100000
	src := "<http://example.org/s> <http://example.org/p> " +
		strings.Repeat("<<( <http://example.org/a> <http://example.org/b> ", depth) + "\"x\"" + strings.Repeat(" )>>", depth) + " ."
	_, err := parseAll(t, src, NTriples, rdf.ReadOptions{})
	if !errors.Is(err, rdf.ErrLimit) || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("got %v, want a nesting limit error", err)
	}
	src = "<http://example.org/s> <http://example.org/p> <<( <http://example.org/a> <http://example.org/b> \"x\"@en ) .\n"
	_, err = parseAll(t, src, NTriples, rdf.ReadOptions{})
	checkPos(t, err, "", 1, 104, "expected ')>>'")
}

// TestParseErrorString checks the FILE:LINE:COL: message form.
func TestParseErrorString(t *testing.T) {
	_, err := parseAll(t, "\n\n  <rel> <http://example.org/p> <http://example.org/o> .", NTriples, rdf.ReadOptions{File: "x.nt", Strict: true})
	want := `x.nt:3:3: IRI "rel" is not absolute (it has no scheme such as http:)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestNQuads(t *testing.T) {
	src := `<http://example.org/s> <http://example.org/p> "x" <http://example.org/g> .
_:s <http://example.org/p> _:o _:g .
<http://example.org/s> <http://example.org/p> "y" .
`
	qs, err := parseAll(t, src, NQuads, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rdf.Quad{
		{S: iri("s"), P: iri("p"), O: rdf.NewString("x"), G: iri("g")},
		{S: rdf.NewBlank("s"), P: iri("p"), O: rdf.NewBlank("o"), G: rdf.NewBlank("g")},
		{S: iri("s"), P: iri("p"), O: rdf.NewString("y")},
	}
	if len(qs) != len(want) {
		t.Fatalf("got %d quads, want %d", len(qs), len(want))
	}
	for i := range want {
		if qs[i] != want[i] {
			t.Errorf("quad %d: got %v, want %v", i, qs[i], want[i])
		}
	}
}

// TestReaderNext checks the pull API: quads in order, io.EOF at the end,
// and a sticky error.
func TestReaderNext(t *testing.T) {
	r := NewReader(strings.NewReader("<http://example.org/s> <http://example.org/p> \"1\" .\n# c\n<http://example.org/s> <http://example.org/p> \"2\" ."), NTriples, rdf.ReadOptions{})
	for _, want := range []string{"1", "2"} {
		q, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if q.O.Value != want {
			t.Errorf("got object %q, want %q", q.O.Value, want)
		}
	}
	for range 2 {
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("got %v, want io.EOF", err)
		}
	}
	if r.Line() != 3 {
		t.Errorf("Line() = %d, want 3", r.Line())
	}

	r = NewReader(strings.NewReader("bad\n<http://example.org/s> <http://example.org/p> \"1\" .\n"), NTriples, rdf.ReadOptions{})
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Errorf("errors not sticky: %v then %v", err1, err2)
	}
}

// TestReaders parses the same text through readers that return one byte at
// a time, return data with io.EOF, or fail.
func TestReaders(t *testing.T) {
	src := strings.Repeat("<http://example.org/s> <http://example.org/p> \"é\\n\"@en .\r\n", 50)
	for name, rd := range map[string]io.Reader{
		"one byte":   iotest.OneByteReader(strings.NewReader(src)),
		"data + EOF": iotest.DataErrReader(strings.NewReader(src)),
		"half":       iotest.HalfReader(strings.NewReader(src)),
	} {
		n := 0
		err := Parse(rd, NTriples, rdf.SinkFunc(func(q rdf.Quad) error {
			if q.O != rdf.NewLangString("é\n", "en") {
				t.Fatalf("%s: got %v", name, q.O)
			}
			n++
			return nil
		}), rdf.ReadOptions{})
		if err != nil || n != 50 {
			t.Errorf("%s: got %d quads, error %v; want 50, nil", name, n, err)
		}
	}
	boom := errors.New("boom")
	err := Parse(io.MultiReader(strings.NewReader(src[:100]), iotest.ErrReader(boom)), NTriples, rdf.SinkFunc(func(rdf.Quad) error { return nil }), rdf.ReadOptions{})
	if !errors.Is(err, boom) {
		t.Errorf("got %v, want the read error", err)
	}
	stop := errors.New("stop")
	err = Parse(strings.NewReader(src), NTriples, rdf.SinkFunc(func(rdf.Quad) error { return stop }), rdf.ReadOptions{})
	if err != stop {
		t.Errorf("got %v, want the sink's error", err)
	}
}

// TestLongLine reads a literal longer than the initial buffer.
func TestLongLine(t *testing.T) {
	long := strings.Repeat("abcdefghé", 100000) // 1 MB
	src := "<http://example.org/s> <http://example.org/p> \"" + long + "\" .\n<http://example.org/s> <http://example.org/p> \"x\" .\n"
	qs, err := parseAll(t, src, NTriples, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].O.Value != long || qs[1].O.Value != "x" {
		t.Errorf("long literal not read back")
	}
}

func TestLimits(t *testing.T) {
	line := "<http://example.org/s> <http://example.org/p> \"0123456789\" .\n"
	src := strings.Repeat(line, 10)
	tests := []struct {
		name   string
		lim    rdf.Limits
		src    string
		line   int
		msg    string
		nquads int
	}{
		{"term length literal", rdf.Limits{MaxTermLength: 9}, src, 1, "term longer than 9 bytes", 0},
		{"term length IRI", rdf.Limits{MaxTermLength: 19}, src, 1, "term longer than 19 bytes", 0},
		{"term length escaped", rdf.Limits{MaxTermLength: 25}, "<http://example.org/s> <http://example.org/p> \"\\u0041" + strings.Repeat("a", 30) + "\" .\n", 1, "term longer than 25 bytes", 0},
		{"quads", rdf.Limits{MaxQuads: 3}, src, 4, "more than 3 statements", 3},
		{"bytes", rdf.Limits{MaxBytes: int64(len(line)*2 + 5)}, src, 3, "input larger than", 2},
		{"line length", rdf.Limits{MaxTermLength: 10}, "<http://example.org/s> <http://example.org/p> \"" + strings.Repeat("x", 300000) + "\" .\n", 1, "line longer than", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := parseAll(t, tc.src, NTriples, rdf.ReadOptions{File: "lim.nt", Limits: tc.lim})
			if !errors.Is(err, rdf.ErrLimit) {
				t.Fatalf("got %v, want an error wrapping rdf.ErrLimit", err)
			}
			var perr *rdf.ParseError
			if !errors.As(err, &perr) || perr.Line != tc.line || !strings.Contains(perr.Msg, tc.msg) {
				t.Errorf("got %v, want line %d and %q", err, tc.line, tc.msg)
			}
			if len(qs) != tc.nquads {
				t.Errorf("got %d quads before the error, want %d", len(qs), tc.nquads)
			}
		})
	}
	// Negative limits mean no limit.
	qs, err := parseAll(t, src, NTriples, rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: -1, MaxQuads: -1, MaxTermLength: -1}})
	if err != nil || len(qs) != 10 {
		t.Errorf("unlimited: got %d quads, %v", len(qs), err)
	}
}

// TestNomisma parses the 757k-triple Nomisma dump and writes it back: the
// file was written by another tool in canonical N-Triples, so the output
// must equal the input byte for byte, and the count must match its README.
func TestNomisma(t *testing.T) {
	if testing.Short() {
		t.Skip("91 MB input; run without -short")
	}
	zr := openNomisma(t)
	in, out := sha256.New(), sha256.New()
	w := NewWriter(out, NTriples)
	n := 0
	r := NewReader(io.TeeReader(zr, in), NTriples, rdf.ReadOptions{File: "nomisma.nt"})
	for {
		q, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		if err := w.WriteQuad(q); err != nil {
			t.Fatal(err)
		}
	}
	// Memory stays bounded: the buffer does not grow past the read size
	// (no line is that long) and the string cache past its size.
	if len(r.buf) > maxReadSize || r.cache.Len() > grammar.MaxEntries || r.iris.Len() > grammar.MaxEntries {
		t.Errorf("buffer %d bytes, cache %d entries: want at most %d and %d", len(r.buf), r.cache.Len(), maxReadSize, grammar.MaxEntries)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if n != nomismaTriples {
		t.Errorf("got %d triples, want %d", n, nomismaTriples)
	}
	if !bytes.Equal(in.Sum(nil), out.Sum(nil)) {
		t.Errorf("canonical output differs from the input")
	}
}

// TestDefects checks the reader policy of package rdf on N-Triples: a term
// the grammar allows but RDF does not is kept, with a warning at its
// position, and is an error with Strict. These inputs were errors before,
// though the other readers kept the same terms (the IRI of schema.org's
// SearchAction, Wikidata's zh-classical label) and the writer wrote them.
func TestDefects(t *testing.T) {
	const s, p = "<http://example.org/s> ", "<http://example.org/p> "
	for _, tc := range []struct {
		name, line string
		want       rdf.Term
		col        int
		msg        string // "" for no warning
	}{
		{"escaped brace", s + p + `<https://example.com/?s=\u007Bsearch_term_string\u007D> .`,
			rdf.NewIRI("https://example.com/?s={search_term_string}"), 47, `contains the character "{"`},
		{"escaped space", s + p + `<http://example.org/a\u0020b> .`, rdf.NewIRI("http://example.org/a b"), 47, `contains the character " "`},
		{"escaped backslash", s + p + `<http://example.org/a\u005Cb> .`, rdf.NewIRI(`http://example.org/a\b`), 47, `contains the character "\\"`},
		{"relative", s + p + `<a/b> .`, rdf.NewIRI("a/b"), 47, "not absolute"},
		{"second hash", s + p + `<http://example.org/#a#b> .`, rdf.NewIRI("http://example.org/#a#b"), 47, `second "#"`},
		{"long subtag", s + p + `"x"@zh-classical .`, rdf.NewLangString("x", "zh-classical"), 51, "not well-formed BCP 47"},
		{"private use", s + p + `"x"@be-x-old .`, rdf.NewLangString("x", "be-x-old"), 0, ""},
		{"case kept", s + p + `"x"@en-US .`, rdf.NewLangString("x", "en-US"), 0, ""},
		{"surrogate pair", s + p + `"\uD83D\uDE00" .`, rdf.NewString("😀"), 48, "surrogate pair"},
		{"empty datatype", s + p + `"x"^^<> .`, rdf.NewString("x"), 52, "not absolute"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warnings []*rdf.ParseError
			qs, err := parseAll(t, tc.line+"\n", NTriples, rdf.ReadOptions{File: "w.nt", Warn: func(e *rdf.ParseError) { warnings = append(warnings, e) }})
			if err != nil || len(qs) != 1 || qs[0].O != tc.want {
				t.Fatalf("got %v, %v; want the object %v", qs, err, tc.want)
			}
			if tc.msg == "" {
				if len(warnings) != 0 {
					t.Errorf("unexpected warnings %v", warnings)
				}
				return
			}
			if len(warnings) != 1 {
				t.Fatalf("got %d warnings, want 1", len(warnings))
			}
			checkPos(t, warnings[0], "w.nt", 1, tc.col, tc.msg)
			_, err = parseAll(t, tc.line+"\n", NTriples, rdf.ReadOptions{File: "w.nt", Strict: true})
			checkPos(t, err, "w.nt", 1, tc.col, tc.msg)
		})
	}
}

// TestErrorOffsetLargeInput checks the byte offset of errors after the
// reader has moved and grown its buffer many times, with a byte order mark
// and CR LF line ends counted.
func TestErrorOffsetLargeInput(t *testing.T) {
	var b strings.Builder
	b.WriteString("\ufeff")
	for i := 0; b.Len() < 600<<10; i++ {
		b.WriteString(`<http://example.org/s> <http://example.org/p> "ünïcödé ` + strings.Repeat("x", i%97) + "\" .\r\n")
	}
	bad := `<http://example.org/s> <http://example.org/p> "é\q" .`
	src := b.String() + bad + "\n"
	_, err := parseAll(t, src, NTriples, rdf.ReadOptions{})
	var perr *rdf.ParseError
	if !errors.As(err, &perr) {
		t.Fatalf("got %v", err)
	}
	want := int64(b.Len() + strings.Index(bad, `\q`))
	if perr.Offset != want || perr.Column != 49 {
		t.Errorf("offset %d col %d, want %d and 49", perr.Offset, perr.Column, want)
	}
}

// TestDefectsCached checks that the string cache, which spares the checks
// of an IRI seen recently, does not hide a defect behind a blank node label
// or a language tag with the same text; and that a repeated defect is
// reported once while it is cached.
func TestDefectsCached(t *testing.T) {
	src := `_:abc <http://example.org/p> "x"@abc .
_:abc <http://example.org/p> <abc> .
<abc> <http://example.org/p> <abc> .
<abc> <http://example.org/p> <http://example.org/o> .
`
	var warns []string
	qs, err := parseAll(t, src, NTriples, rdf.ReadOptions{Warn: func(e *rdf.ParseError) { warns = append(warns, fmt.Sprint(e.Line, ":", e.Column)) }})
	if err != nil || len(qs) != 4 {
		t.Fatalf("%d quads, %v", len(qs), err)
	}
	if strings.Join(warns, " ") != "2:30" {
		t.Errorf("warnings at %v, want one at 2:30", warns)
	}
	_, err = parseAll(t, src, NTriples, rdf.ReadOptions{Strict: true})
	checkPos(t, err, "", 2, 30, "not absolute")
}

// TestTransientEscapes checks ReadOptions.Transient on lines where several
// terms are decoded from escapes (into the scratch buffer the terms of a
// line share), relative IRIs (warned about once each) and triple terms.
func TestTransientEscapes(t *testing.T) {
	doc := `<http://x/\u0041> <http://x/p> "a\u0042\n" .
<http://x/\u0041> <http://x/\u0050> <http://x/\U00000043> .
_:b1 <http://x/p> "x"^^<http://x/d\u0041> .
<rel> <http://x/p> <rel> .
<rel> <http://x/p> <http://x/#a#b> <http://x/g\u0047> .
<http://x/s> <http://x/p> <<( <http://x/\u0041> <http://x/p> "\u0043" )>> .
_:b1 <http://x/p> "v"@en--ltr .
`
	transientSame(t, []byte(doc), NQuads, rdf.ReadOptions{})
}
