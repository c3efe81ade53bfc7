package py

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The fixtures in testdata/py_fixtures.json were produced by CPython 3.11.7
// with testdata/gen_py_fixtures.py; they are the oracle of the tests below.
type pyFixtures struct {
	Python string `json:"python"`
	Cases  struct {
		Lower        [][2]string         `json:"lower"`
		Strip        [][2]string         `json:"strip"`
		Split        []json.RawMessage   `json:"split"`
		Repr         [][2]string         `json:"repr"`
		ReprList     []json.RawMessage   `json:"reprlist"`
		JSON         [][3]string         `json:"json"`
		Quote        [][2]string         `json:"quote"`
		IsSpace      []rune              `json:"isspace"`
		Literal      []json.RawMessage   `json:"literal"`
		StrHash      [][]json.RawMessage `json:"strhash"`
		TupleHashRaw [][]json.RawMessage `json:"tuplehash"`
		SetOrder     []struct {
			N     int   `json:"n"`
			Order []int `json:"order"`
			Copy  []int `json:"copy"`
		} `json:"setorder"`
		IntSet struct {
			Adds   []int   `json:"adds"`
			Orders [][]int `json:"orders"`
		} `json:"intset"`
	} `json:"cases"`
}

func loadPyFixtures(t *testing.T) *pyFixtures {
	t.Helper()
	b, err := os.ReadFile("testdata/py_fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f pyFixtures
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

func TestStrAgainstCPython(t *testing.T) {
	f := loadPyFixtures(t)
	for _, c := range f.Cases.Lower {
		if got := Lower(c[0]); got != c[1] {
			t.Errorf("Lower(%q) = %q, CPython %q", c[0], got, c[1])
		}
	}
	for _, c := range f.Cases.Strip {
		if got := Strip(c[0]); got != c[1] {
			t.Errorf("Strip(%q) = %q, CPython %q", c[0], got, c[1])
		}
	}
	for _, raw := range f.Cases.Split {
		var c []json.RawMessage
		var in string
		var want []string
		if json.Unmarshal(raw, &c) != nil || json.Unmarshal(c[0], &in) != nil || json.Unmarshal(c[1], &want) != nil {
			t.Fatalf("bad split case %s", raw)
		}
		if got := Split(in); strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Errorf("Split(%q) = %q, CPython %q", in, got, want)
		}
	}
	for _, c := range f.Cases.Repr {
		if got := Repr(c[0]); got != c[1] {
			t.Errorf("Repr(%q) = %s, CPython %s", c[0], got, c[1])
		}
	}
	for _, raw := range f.Cases.ReprList {
		var c []json.RawMessage
		var in []string
		var want string
		if json.Unmarshal(raw, &c) != nil || json.Unmarshal(c[0], &in) != nil || json.Unmarshal(c[1], &want) != nil {
			t.Fatalf("bad reprlist case %s", raw)
		}
		if got := ReprList(in); got != want {
			t.Errorf("ReprList(%q) = %s, CPython %s", in, got, want)
		}
	}
	for _, c := range f.Cases.Quote {
		if got := URLQuote(c[0]); got != c[1] {
			t.Errorf("URLQuote(%q) = %q, CPython %q", c[0], got, c[1])
		}
	}
	want := map[rune]bool{}
	for _, r := range f.Cases.IsSpace {
		want[r] = true
	}
	if len(want) != 29 {
		t.Errorf("CPython lists %d space characters, want 29", len(want))
	}
	for r := rune(0); r <= 0x10ffff; r++ {
		if IsSpace(r) != want[r] {
			t.Errorf("IsSpace(%U) = %v, CPython %v", r, IsSpace(r), want[r])
		}
	}
}

func TestWriteJSONStringAgainstCPython(t *testing.T) {
	f := loadPyFixtures(t)
	for _, c := range f.Cases.JSON {
		for i, ascii := range []bool{true, false} {
			var b strings.Builder
			if err := WriteJSONString(&b, c[0], ascii); err != nil {
				t.Fatal(err)
			}
			if b.String() != c[1+i] {
				t.Errorf("WriteJSONString(%q, ensureASCII=%v) = %s, CPython %s", c[0], ascii, b.String(), c[1+i])
			}
		}
	}
	// Invalid UTF-8 (which a Python str cannot hold) is written as U+FFFD.
	var b strings.Builder
	_ = WriteJSONString(&b, "a\xffb", true)
	if b.String() != `"a\ufffdb"` {
		t.Errorf("invalid UTF-8: %s", b.String())
	}
}

// TestJSONQuotingVariants checks each knob of JSONQuoting on the characters
// it is about, against hand-written expectations.
func TestJSONQuotingVariants(t *testing.T) {
	const s = "\b\f\x7f\xff\uFFFD\u00e9\""
	cases := []struct {
		q    JSONQuoting
		want string
	}{
		{JSONQuoting{}, `"\b\f` + "\x7f\uFFFD\uFFFD\u00e9" + `\""`},
		{JSONQuoting{EnsureASCII: true}, `"\b\f\u007f\ufffd\ufffd\u00e9\""`},
		{JSONQuoting{EscapeDEL: true}, `"\b\f\u007f` + "\uFFFD\uFFFD\u00e9" + `\""`},
		{JSONQuoting{HexBF: true}, `"\u0008\u000c` + "\x7f\uFFFD\uFFFD\u00e9" + `\""`},
		{JSONQuoting{EscapeInvalid: true}, `"\b\f` + "\x7f" + `\ufffd` + "\uFFFD\u00e9" + `\""`},
		{JSONQuoting{EscapeDEL: true, HexBF: true, EscapeInvalid: true}, `"\u0008\u000c\u007f\ufffd` + "\uFFFD\u00e9" + `\""`},
	}
	for _, c := range cases {
		var b strings.Builder
		if err := c.q.Write(&b, s); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%+v: %q, want %q", c.q, b.String(), c.want)
		}
	}
}

// describe renders a Value as the fixture generator encodes Python values.
func describe(v Value) any {
	switch v.Kind {
	case Str:
		return []any{"str", v.S}
	case Bytes:
		bs := []any{}
		for i := 0; i < len(v.S); i++ {
			bs = append(bs, float64(v.S[i]))
		}
		return []any{"bytes", bs}
	case Const:
		return []any{"const", v.S}
	case Num:
		return []any{"num"}
	case List, Tuple:
		items := []any{}
		for _, it := range v.Items {
			items = append(items, describe(it))
		}
		return []any{map[Kind]string{List: "list", Tuple: "tuple"}[v.Kind], items}
	case Set:
		return []any{"set", float64(len(v.Items))}
	case Dict:
		return []any{"dict", float64(len(v.Items))}
	}
	return nil
}

func TestLiteralEvalAgainstCPython(t *testing.T) {
	f := loadPyFixtures(t)
	for _, raw := range f.Cases.Literal {
		var c []json.RawMessage
		var in string
		var want any
		if json.Unmarshal(raw, &c) != nil || json.Unmarshal(c[0], &in) != nil || json.Unmarshal(c[1], &want) != nil {
			t.Fatalf("bad literal case %s", raw)
		}
		if strings.Contains(in, `\N{`) {
			// \N{NAME} needs the Unicode name table: a documented
			// deviation, LiteralEval rejects it.
			if _, err := LiteralEval(in); err == nil {
				t.Errorf("LiteralEval(%q) accepted \\N{...}", in)
			}
			continue
		}
		v, err := LiteralEval(in)
		if want == nil {
			if err == nil {
				t.Errorf("LiteralEval(%q) = %v, CPython raises", in, describe(v))
			}
			continue
		}
		if err != nil {
			t.Errorf("LiteralEval(%q): %v, CPython %v", in, err, want)
			continue
		}
		got, _ := json.Marshal(describe(v))
		w, _ := json.Marshal(want)
		if string(got) != string(w) {
			t.Errorf("LiteralEval(%q) = %s, CPython %s", in, got, w)
		}
	}
}

func TestIntSetOrderAgainstCPython(t *testing.T) {
	f := loadPyFixtures(t)
	s := NewIntSet()
	for i, x := range f.Cases.IntSet.Adds {
		s.Add(x)
		got, want := s.Items(), f.Cases.IntSet.Orders[i]
		if len(got) != len(want) || s.Len() != len(want) {
			t.Fatalf("after adding %d: %v, CPython %v", x, got, want)
		}
		for j := range got {
			if got[j] != want[j] {
				t.Fatalf("after adding %d: %v, CPython %v", x, got, want)
			}
		}
	}
}

func TestHashAgainstCPython(t *testing.T) {
	f := loadPyFixtures(t)
	for _, c := range f.Cases.StrHash {
		var s string
		var want int64
		if json.Unmarshal(c[0], &s) != nil || json.Unmarshal(c[1], &want) != nil {
			t.Fatalf("bad strhash case")
		}
		if got := StrHash(s); got != want {
			t.Errorf("StrHash(%q) = %d, CPython %d", s, got, want)
		}
	}
	if len(f.Cases.StrHash) < 60 {
		t.Errorf("%d string hashes", len(f.Cases.StrHash))
	}
	for _, c := range f.Cases.TupleHashRaw {
		var items []int64
		var want int64
		if json.Unmarshal(c[0], &items) != nil || json.Unmarshal(c[1], &want) != nil {
			t.Fatalf("bad tuplehash case")
		}
		if got := TupleHash(items...); got != want {
			t.Errorf("TupleHash(%v) = %d, CPython %d", items, got, want)
		}
	}
	for _, c := range f.Cases.SetOrder {
		s := NewHashSet[string]()
		key := func(k int) string { return "http://example.org/countries#" + strconv.Itoa(k) }
		var adds []int
		for i := 0; i < c.N; i++ {
			adds = append(adds, (i*7919)%5003)
		}
		adds = append(adds, adds[:3]...)
		for _, k := range adds {
			s.Add(key(k), StrHash(key(k)))
		}
		check := func(what string, got []string, want []int) {
			if len(got) != len(want) {
				t.Fatalf("n=%d %s: %d items, CPython %d", c.N, what, len(got), len(want))
			}
			for i := range got {
				if got[i] != key(want[i]) {
					t.Fatalf("n=%d %s: item %d is %s, CPython %s", c.N, what, i, got[i], key(want[i]))
				}
			}
		}
		check("set", s.Items(), c.Order)
		check("copy", s.Copy().Items(), c.Copy)
	}
}

// TestDumper writes one value with each layout; the expected texts are
// CPython 3.11's json.dumps of {"a": [], "b": {}, "c": ["x", {"é":
// "\u2028\n"}, [["y"]]], "d": "z"} with indent=2, indent=4 with
// ensure_ascii, and separators=(",", ":").
func TestDumper(t *testing.T) {
	for _, c := range []struct {
		indent int
		ascii  bool
		want   string
	}{
		{2, false, "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    \"x\",\n    {\n      \"é\": \"\u2028\\n\"\n    },\n    [\n      [\n        \"y\"\n      ]\n    ]\n  ],\n  \"d\": \"z\"\n}"},
		{4, true, "{\n    \"a\": [],\n    \"b\": {},\n    \"c\": [\n        \"x\",\n        {\n            \"\\u00e9\": \"\\u2028\\n\"\n        },\n        [\n            [\n                \"y\"\n            ]\n        ]\n    ],\n    \"d\": \"z\"\n}"},
		{0, false, "{\"a\":[],\"b\":{},\"c\":[\"x\",{\"é\":\"\u2028\\n\"},[[\"y\"]]],\"d\":\"z\"}"},
	} {
		var b strings.Builder
		d := NewDumper(&b, c.indent, c.ascii)
		d.OpenObject()
		d.Key("a")
		d.OpenArray()
		d.Close()
		d.Key("b")
		d.OpenObject()
		d.Close()
		d.Key("c")
		d.OpenArray()
		d.String("x")
		d.OpenObject()
		d.Key("é")
		d.String("\u2028\n")
		d.Close()
		d.OpenArray()
		d.OpenArray()
		d.String("y")
		d.Close()
		d.Close()
		d.Close()
		d.Key("d")
		d.String("z")
		d.Close()
		if d.Err() != nil || b.String() != c.want {
			t.Errorf("indent %d, ensure_ascii %t: %v\n%q\nwant\n%q", c.indent, c.ascii, d.Err(), b.String(), c.want)
		}
	}
	// Top-level scalars and empty containers.
	var b strings.Builder
	d := NewDumper(&b, 2, false)
	d.OpenArray()
	d.Close()
	d.OpenObject()
	d.Close()
	d.String("s")
	if b.String() != `[]{}"s"` {
		t.Errorf("top level: %q", b.String())
	}
}
