package textbudget

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// handDoc is an ISOLDA document whose split is worked out by hand: six
// records (three rows, one with a continuation line, two ~extra: blocks
// and the row of a table in a named graph).
const handDoc = `# ISOLDA 0.2: an RDF graph as text.
@vocab http://e/

T[3]{id, name}:
  a, A
  b, B
    more: 1
  c, C

~extra:
  a:
    q: 1
  b:
    q: 2

@graph g

U[1]{id}:
  x

`

func TestSplitISOLDAByHand(t *testing.T) {
	d := Split(handDoc, ISOLDA)
	if d.String() != handDoc {
		t.Fatal("parts do not join to the text")
	}
	var got []string
	for _, p := range d.Parts() {
		got = append(got, []string{"H", "S", "T", "R"}[p.Kind]+":"+p.Text)
	}
	want := []string{
		"H:# ISOLDA 0.2: an RDF graph as text.\n", "H:@vocab http://e/\n", "H:\n",
		"S:T[3]{id, name}:\n", "R:  a, A\n", "R:  b, B\n    more: 1\n", "R:  c, C\n", "T:\n",
		"S:~extra:\n", "R:  a:\n    q: 1\n", "R:  b:\n    q: 2\n", "T:\n",
		"H:@graph g\n", "H:\n",
		"S:U[1]{id}:\n", "R:  x\n", "T:\n",
	}
	if !slices.Equal(got, want) {
		t.Errorf("parts\n%q\nwant\n%q", got, want)
	}
	if d.NumRecords() != 6 || len(d.Records()) != 6 {
		t.Errorf("%d records", d.NumRecords())
	}
	head := "# ISOLDA 0.2: an RDF graph as text.\n@vocab http://e/\n\n"
	for k, want := range map[int]string{
		// Every table cut to 0 rows: only the head is left.
		0: head + "@graph g\n\n",
		1: head + "T[1]{id, name}:\n  a, A\n\n@graph g\n\n",
		2: head + "T[2]{id, name}:\n  a, A\n  b, B\n    more: 1\n\n@graph g\n\n",
		4: head + "T[3]{id, name}:\n  a, A\n  b, B\n    more: 1\n  c, C\n\n~extra:\n  a:\n    q: 1\n\n@graph g\n\n",
		6: handDoc, 7: handDoc, -1: head + "@graph g\n\n",
	} {
		if got := d.Prefix(k); got != want {
			t.Errorf("Prefix(%d)\n%s\nwant\n%s", k, got, want)
		}
	}
}

func TestSplitLines(t *testing.T) {
	text := "\n<a> <b> <c> .\n\n<a> <b> <d> .\r\n<a> <b> <e> ."
	d := Split(text, Lines)
	var got []string
	for _, p := range d.Parts() {
		got = append(got, []string{"H", "S", "T", "R"}[p.Kind]+":"+p.Text)
	}
	want := []string{"H:\n", "R:<a> <b> <c> .\n\n", "R:<a> <b> <d> .\r\n", "R:<a> <b> <e> ."}
	if !slices.Equal(got, want) || d.String() != text {
		t.Errorf("parts %q", got)
	}
	if got := d.Prefix(1); got != "\n<a> <b> <c> .\n\n" {
		t.Errorf("Prefix(1) = %q", got)
	}
	// JSON lines: every line a record.
	d = Split("{\"a\":1}\n{\"a\":2}\n", SyntaxOf("jsonl"))
	if d.NumRecords() != 2 || d.Prefix(1) != "{\"a\":1}\n" {
		t.Errorf("jsonl: %d records, %q", d.NumRecords(), d.Prefix(1))
	}
}

func TestSyntaxOf(t *testing.T) {
	for name, want := range map[string]Syntax{"isolda": ISOLDA, "isolda-0.1": ISOLDA, "isolda-0.3": ISOLDA,
		"ntriples": Lines, "nquads": Lines, "turtle": Lines, "isoldaX": Lines, "": Lines} {
		if got := SyntaxOf(name); got != want {
			t.Errorf("SyntaxOf(%q) = %v", name, got)
		}
	}
}

func TestEmptyAndAllHead(t *testing.T) {
	for _, s := range []Syntax{Lines, ISOLDA} {
		d := Split("", s)
		if d.NumRecords() != 0 || d.String() != "" || d.Prefix(0) != "" {
			t.Errorf("%v: empty text split into %v", s, d.Parts())
		}
		c, err := d.Fit(bytesCount, 0)
		if err != nil || c != (Cut{}) {
			t.Errorf("%v: empty text at budget 0: %+v, %v", s, c, err)
		}
	}
	head := "# ISOLDA 0.3: glossary\n@vocab http://e/\n@prefix ex: http://e/x#\n"
	d := Split(head, ISOLDA)
	if d.NumRecords() != 0 {
		t.Fatalf("%d records in a document that is all head", d.NumRecords())
	}
	c, err := d.Fit(bytesCount, len(head))
	if err != nil || c.Text != head || c.Tokens != len(head) || c.Records != 0 || c.Kept != 0 {
		t.Errorf("all head, budget = its size: %+v, %v", c, err)
	}
	_, err = d.Fit(bytesCount, len(head)-1)
	var he *HeadError
	if !errors.As(err, &he) || he.Tokens != len(head) || he.Budget != len(head)-1 {
		t.Errorf("all head, budget below its size: %v", err)
	}
}

func TestFitBudgetZeroAndBytes(t *testing.T) {
	d := Split(handDoc, ISOLDA)
	c, err := d.Fit(bytesCount, 0)
	var he *HeadError
	if !errors.As(err, &he) || c.Records != 6 || c.Text != "" {
		t.Errorf("budget 0: %+v, %v", c, err)
	}
	if !strings.Contains(err.Error(), "budget of 0 tokens is smaller than the document without records") {
		t.Errorf("message: %v", err)
	}
	// With a byte count the answer is exact: the most records whose
	// prefix is within the budget.
	for budget := len(d.Prefix(0)); budget <= len(handDoc)+1; budget++ {
		c, err := d.Fit(bytesCount, budget)
		if err != nil {
			t.Fatalf("budget %d: %v", budget, err)
		}
		want := 0
		for k := 0; k <= 6; k++ {
			if len(d.Prefix(k)) <= budget {
				want = k
			}
		}
		if c.Kept != want || c.Text != d.Prefix(want) || c.Tokens != len(c.Text) || c.Records != 6 {
			t.Errorf("budget %d: kept %d (%+v), want %d", budget, c.Kept, c, want)
		}
	}
}

// TestRecordlessSection: a section that never had records (a "~in:" line
// with nothing under it, a table of 0 rows) is head-like: always kept.
func TestRecordlessSection(t *testing.T) {
	text := "@vocab http://e/\n\nT[0]{id}:\n\nU[2]{id}:\n  a\n  b\n\n~in:\n"
	d := Split(text, ISOLDA)
	if got, want := d.Prefix(1), "@vocab http://e/\n\nT[0]{id}:\n\nU[1]{id}:\n  a\n\n~in:\n"; got != want {
		t.Errorf("Prefix(1) = %q, want %q", got, want)
	}
	if got, want := d.Prefix(0), "@vocab http://e/\n\nT[0]{id}:\n\n~in:\n"; got != want {
		t.Errorf("Prefix(0) = %q, want %q", got, want)
	}
}

func TestRowCount(t *testing.T) {
	for _, c := range []struct {
		line string
		want int // offset of N, -1: not a header with a count
	}{
		{"Sense[3]{id, @iri}:\n", 6},
		{"Thing_[12]:\n", 7},
		{"<http://x/a[1]>[2]{id}:\n", 16},
		{"ex:T[4]{id} p=v:\n", 5},
		{"@types Sense 3\n", -1},
		{"# Type[N]{a}: a table\n", -1},
		{"  row[1]{x}:\n", -1},
		{"~extra:\n", -1},
		{"Sense[]{id}:\n", -1},
		{"Sense[3]x\n", -1},
		{"Sense[3]", -1},
		{"<http://x/a[1]{id}:\n", -1},
	} {
		i, _, ok := rowCount(c.line)
		if !ok {
			i = -1
		}
		if i != c.want {
			t.Errorf("rowCount(%q) = %d, want %d", c.line, i, c.want)
		}
	}
	for _, c := range []struct {
		header      string
		drop, least int
		want        string
	}{
		{"Sense[13]{id}:\n", 11, 2, "Sense[2]{id}:\n"},
		{"Sense[13]{id}:\n", 0, 2, "Sense[13]{id}:\n"},
		{"Sense[3]{id}:\n", 5, 1, "Sense[1]{id}:\n"}, // a count that was wrong: the rows kept
		{"Sense[99999999999999999999]{id}:\n", 1, 4, "Sense[4]{id}:\n"},
		{"~extra:\n", 3, 0, "~extra:\n"},
	} {
		if got := lowerRowCount(c.header, c.drop, c.least); got != c.want {
			t.Errorf("lowerRowCount(%q, %d, %d) = %q, want %q", c.header, c.drop, c.least, got, c.want)
		}
	}
}

func TestInlineClasses(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"  a, A, b\n", nil},
		{"  c, ex:c, C, {name: anon}\n", []string{"Thing_"}},
		{"  x, [2] {a: Restriction, p> y} | {q: \"}{\", a: [2] ex:K | L}\n", []string{"Restriction", "ex:K"}},
		{"  h, {a: Class, unionOf> {rdf:first> H1, rdf:rest> {rdf:first> H2}}}\n", []string{"Class", "Thing_", "Thing_"}},
		{"  \"q{uoted}\", {}\n    p> {a: <http://x/T>}\n", []string{"Thing_", "<http://x/T>"}},
		{"  z, {b: 1, a: Late}\n", []string{"Late"}},
	} {
		if got := inlineClasses(c.text); !slices.Equal(got, c.want) {
			t.Errorf("inlineClasses(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestInlineCounts: a table's [N] counts the inline entities of its class
// in its graph; leaving out the record that holds one lowers N.
func TestInlineCounts(t *testing.T) {
	text := "T[2]{id, p>}:\n  a, {q: 1}\n  b, c\n\nThing_[2]{id}:\n  c\n\n@graph g\n\nThing_[1]{id}:\n  d\n"
	d := Split(text, ISOLDA)
	if got := d.Prefix(1); got != "T[1]{id, p>}:\n  a, {q: 1}\n\n@graph g\n\n" {
		t.Errorf("Prefix(1) = %q", got)
	}
	// Reordered so that the row holding the inline entity goes last:
	// c, b, a, d.
	d.Reorder(func(seg []int) []int { s := slices.Clone(seg); slices.Reverse(s); return s },
		func(recs []int) []int { return slices.Concat(recs[1:], recs[:1]) })
	if got, want := d.Prefix(2), "Thing_[1]{id}:\n  c\n\nT[1]{id, p>}:\n  b, c\n\n@graph g\n\n"; got != want {
		t.Errorf("reordered Prefix(2) = %q, want %q", got, want)
	}
	if got, want := d.Prefix(3), "Thing_[2]{id}:\n  c\n\nT[2]{id, p>}:\n  b, c\n  a, {q: 1}\n\n@graph g\n\n"; got != want {
		t.Errorf("reordered Prefix(3) = %q, want %q", got, want)
	}
}

func TestReorder(t *testing.T) {
	d := Split(handDoc, ISOLDA)
	d.Reorder(func(seg []int) []int { return seg }, func(recs []int) []int { return recs })
	if d.String() != handDoc {
		t.Errorf("identity reorder changed the text:\n%s", d.String())
	}
	d.Reorder(func(seg []int) []int { s := slices.Clone(seg); slices.Reverse(s); return s },
		func(recs []int) []int { r := slices.Clone(recs); slices.Reverse(r); return r })
	want := `# ISOLDA 0.2: an RDF graph as text.
@vocab http://e/

~extra:
  b:
    q: 2
  a:
    q: 1

T[3]{id, name}:
  c, C
  b, B
    more: 1
  a, A

@graph g

U[1]{id}:
  x

`
	if got := d.String(); got != want {
		t.Errorf("reversed:\n%s\nwant\n%s", got, want)
	}
	// Sections are renumbered: the first kept record is now ~extra:'s.
	if got := d.Prefix(1); got != "# ISOLDA 0.2: an RDF graph as text.\n@vocab http://e/\n\n~extra:\n  b:\n    q: 2\n\n@graph g\n\n" {
		t.Errorf("Prefix(1) after reorder: %q", got)
	}
}

// typesDoc has an @types line: T rows (one with a second type in its a
// cell), a U table whose header gives every row the type V, and a W row
// whose a cell names X.
const typesDoc = `@vocab http://e/
@types T 2, U 1, V 1, W 1, Y 1, X 1

T[2]{id, a}:
  t1, Y
  t2,

U[1]{id} a=V:
  u1

W[1]{id, a}:
  w1, X

`

// TestPrefixTypesLine checks the @types line of a cut document lists no
// type that only the records left out name, by hand.
func TestPrefixTypesLine(t *testing.T) {
	d := Split(typesDoc, ISOLDA)
	for k, want := range map[int]string{
		4: typesDoc,
		// W's row is cut: W and X go.
		3: "@types T 2, U 1, V 1, Y 1\n",
		// U's too: U and V go (V is named only by U's header).
		2: "@types T 2, Y 1\n",
		// t2 is cut, t1 names Y.
		1: "@types T 2, Y 1\n",
		// Nothing kept: no line.
		0: "",
	} {
		got := d.Prefix(k)
		line := ""
		for _, l := range strings.SplitAfter(got, "\n") {
			if strings.HasPrefix(l, "@types") {
				line = l
			}
		}
		if k == 4 {
			if got != want {
				t.Errorf("Prefix(4) is not the document:\n%s", got)
			}
			continue
		}
		if line != want {
			t.Errorf("Prefix(%d): @types line %q, want %q\n%s", k, line, want, got)
		}
	}
	// A type named in a JSON string of a kept row is not kept by it.
	d = Split("@types T 1, Q 1\n\nT[1]{id, note}:\n  t1, \"Q\"\n\nQ[1]{id}:\n  q1\n", ISOLDA)
	if got := d.Prefix(1); !strings.Contains(got, "@types T 1\n") {
		t.Errorf("a type named only in a string kept:\n%s", got)
	}
}
