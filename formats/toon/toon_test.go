package toon

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/perrtest"
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf/rdferr"
)

func TestCanonicalNumber(t *testing.T) {
	// Expected forms follow spec §2 and JavaScript's Number#toString, the
	// reference implementation's formatter.
	cases := []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"-0.0", "0"}, {"0e5", "0"}, {"-0e1", "0"},
		{"1e6", "1000000"}, {"1E+6", "1000000"}, {"1e-6", "0.000001"}, {"1e-06", "0.000001"},
		{"1.5000", "1.5"}, {"-1E+03", "-1000"}, {"2.5e2", "250"}, {"3E-02", "0.03"},
		{"0.1e1", "1"}, {"100e-2", "1"}, {"1.0", "1"}, {"007", "7"},
		{"9.99e20", "999000000000000000000"}, {"100000000000000000000", "100000000000000000000"},
		{"1e21", "1e+21"}, {"1e-7", "1e-7"}, {"-1.25e-7", "-1.25e-7"}, {"9.99e-7", "9.99e-7"},
		{"123456789012345678901234567890", "1.2345678901234567890123456789e+29"},
		{"9007199254740993", "9007199254740993"}, {"0.000001234", "0.000001234"},
		{"1e999999999999999", "1e+999999999999999"},
	}
	for _, c := range cases {
		got, ok := canonicalNumber(c.in)
		if !ok || got != c.want {
			t.Errorf("canonicalNumber(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, bad := range []string{"", "-", ".5", "1.", "+1", "1e", "1e+", "0x10", "1_000", "NaN", "1e1234567890123456"} {
		if got, ok := canonicalNumber(bad); ok {
			t.Errorf("canonicalNumber(%q) = %q, want failure", bad, got)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	// Values checked against JavaScript's String(x).
	a, b := 0.1, 0.2 // variables: constant arithmetic would be exact
	cases := []struct {
		f    float64
		want string
	}{
		{a + b, "0.30000000000000004"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {1e-6, "0.000001"},
		{1e-7, "1e-7"}, {-123.456, "-123.456"}, {math.Copysign(0, -1), "0"},
		{math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
	}
	for _, c := range cases {
		if got := formatFloat(c.f, 64); got != c.want {
			t.Errorf("formatFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
	// Canonical output parses back to the same float (strconv as oracle).
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := formatFloat(f, 64)
		g, err := strconv.ParseFloat(s, 64)
		if err != nil || g != f {
			t.Fatalf("formatFloat(%v) = %q does not round-trip (%v, %v)", f, s, g, err)
		}
		if strings.ContainsAny(s, "eE") && math.Abs(f) >= 1e-6 && math.Abs(f) < 1e21 {
			t.Fatalf("formatFloat(%v) = %q uses an exponent inside the canonical range", f, s)
		}
	}
}

func TestEncodeGoTypes(t *testing.T) {
	o := NewObject(0)
	o.Set("i", -7)
	o.Set("u", uint64(math.MaxUint64))
	o.Set("f32", float32(0.1))
	o.Set("nan", math.NaN())
	o.Set("n", json.Number("1.50"))
	o.Set("nil", (*Object)(nil))
	o.Set("list", []any{int8(1), int16(2), int32(3), int64(4), uint(5), uint8(6), uint16(7), uint32(8)})
	got, err := Marshal(o, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "i: -7\nu: 18446744073709551615\nf32: 0.1\nnan: null\nn: 1.5\nnil: null\nlist[8]: 1,2,3,4,5,6,7,8"
	if string(got) != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	for _, bad := range []Value{struct{}{}, map[string]any{"a": 1}, json.Number("x"), []any{complex(1, 2)}} {
		if _, err := Marshal(bad, EncodeOptions{}); err == nil {
			t.Errorf("Marshal(%T) succeeded", bad)
		}
	}
	// Cyclic values stop at MaxDepth instead of recursing forever.
	cyc := []any{nil, 1}
	cyc[0] = cyc
	if _, err := Marshal(cyc, EncodeOptions{}); err == nil {
		t.Error("cyclic array encoded")
	}
	co := NewObject(1)
	co.Set("self", co)
	co.Set("x", 1)
	if _, err := Marshal(co, EncodeOptions{}); err == nil {
		t.Error("cyclic object encoded")
	}
}

func TestOptionErrors(t *testing.T) {
	for _, o := range []EncodeOptions{{Version: "5"}, {Delimiter: ';'}, {IndentSize: -1}, {KeyFolding: true}} {
		if _, err := Marshal("x", o); err == nil {
			t.Errorf("Marshal with %+v succeeded", o)
		}
	}
	for _, o := range []DecodeOptions{{Version: "1.0"}, {IndentSize: -2}, {ExpandPaths: true}} {
		if _, err := Unmarshal([]byte("a: 1"), o); err == nil {
			t.Errorf("Unmarshal with %+v succeeded", o)
		}
	}
}

func TestErrorPositions(t *testing.T) {
	cases := []struct {
		in         string
		line, col  int
		msgContain string
	}{
		{"a: 1\nb: \"x\\q\"", 2, 6, "invalid escape"},
		{"a:\n\tb: 1", 2, 1, "tab"},
		{"a:\n   b: 1", 2, 1, "multiple"},
		{"x: 1\ntags[3]: a,b", 2, 10, "declares 3"},
		{"items[2]{id,name}:\n  1,Ada\n  2", 3, 3, "cells"},
		{"a: 1\nname: \"unterminated", 2, 7, "unterminated"},
		{"k: \"é\\x\"", 1, 6, "invalid escape"},
		{"a: 1\nb", 2, 1, "colon"},
		{"a: 1\na: 2", 2, 1, "duplicate"},
		{"a: \xff", 1, 4, "UTF-8"},
		{"items[03]: a", 1, 7, "leading zero"},
	}
	for _, c := range cases {
		_, err := Unmarshal([]byte(c.in), DecodeOptions{File: "f.toon"})
		perrtest.At(t, err, "f.toon", c.line, c.col, c.msgContain, "%q", c.in)
	}
}

func TestLimits(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		b.WriteString(strings.Repeat("  ", i) + "a:\n")
	}
	doc := b.String()
	if _, err := Unmarshal([]byte(doc), DecodeOptions{}); err != nil {
		t.Fatalf("50 levels: %v", err)
	}
	_, err := Unmarshal([]byte(doc), DecodeOptions{Limits: rdferr.Limits{MaxDepth: 20}})
	if !errors.Is(err, rdferr.ErrLimit) {
		t.Errorf("depth limit: got %v", err)
	}
	_, err = Decode(strings.NewReader(doc), DecodeOptions{Limits: rdferr.Limits{MaxBytes: 100}})
	if !errors.Is(err, rdferr.ErrLimit) {
		t.Errorf("size limit: got %v", err)
	}
	_, err = Unmarshal([]byte(doc), DecodeOptions{Limits: rdferr.Limits{MaxBytes: 100}})
	if !errors.Is(err, rdferr.ErrLimit) {
		t.Errorf("size limit: got %v", err)
	}
	groups := "x[1]{" + strings.Repeat("a{", 5000) + "b" + strings.Repeat("}", 5001) + ":\n  1"
	if _, err := Unmarshal([]byte(groups), DecodeOptions{}); !errors.Is(err, rdferr.ErrLimit) {
		t.Errorf("field group nesting: got %v", err)
	}
}

func TestHostileInputs(t *testing.T) {
	// Each must fail or succeed quickly, without panicking or allocating by
	// the declared length.
	inputs := []string{
		"x[2147483647]:", "x[99999999999]: 1", "[2000000000]{a}:\n  1", "m[2000000000:]{a}:",
		"x[1]{" + strings.Repeat("a,", 100000) + "a}:\n  1",
		strings.Repeat("- ", 10000), strings.Repeat("\"", 10001), strings.Repeat("[", 10000) + ":",
		"items[1]:\n  - " + strings.Repeat("[1]: ", 1000),
	}
	for _, in := range inputs {
		for _, strict := range []bool{true, false} {
			v, err := Unmarshal([]byte(in), DecodeOptions{NonStrict: !strict})
			if err == nil {
				if _, err := Marshal(v, EncodeOptions{}); err != nil {
					t.Errorf("%.40q: re-encode: %v", in, err)
				}
			}
		}
	}
	// Non-strict short rows do not materialise the missing fields.
	v, err := Unmarshal([]byte("t[3]{a,b{x,y},c}:\n  1\n  2,3\n  4,5,6,7"), DecodeOptions{NonStrict: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := FromJSON([]byte(`{"t":[{"a":1},{"a":2,"b":{"x":3}},{"a":4,"b":{"x":5,"y":6},"c":7}]}`))
	if !equalValues(v, want) {
		t.Errorf("short rows: got %s", jsonString(v))
	}
}

func TestJSONRoundTrip(t *testing.T) {
	in := `{"z":1,"a":[true,false,null,"s\u0001\"\\\n\t<>&é😀"],"m":{"b":1e400,"a":-0.0,"c":12345678901234567890123},"z":2}`
	v, err := FromJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if strings.Join(o.Keys, ",") != "z,a,m" || o.Values["z"] != json.Number("2") {
		t.Errorf("keys %v z=%v", o.Keys, o.Values["z"])
	}
	out, err := ToJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":2,"a":[true,false,null,"s\u0001\"\\\n\t<>&é😀"],"m":{"b":1e+400,"a":0,"c":1.2345678901234567890123e+22}}`
	if string(out) != want {
		t.Errorf("ToJSON = %s\nwant     %s", out, want)
	}
	// encoding/json reads our output back to the same strings (oracle).
	var check map[string]any
	dec := json.NewDecoder(strings.NewReader(string(out)))
	dec.UseNumber()
	if err := dec.Decode(&check); err != nil {
		t.Fatal(err)
	}
	if s := check["a"].([]any)[3].(string); s != "s\x01\"\\\n\t<>&é😀" {
		t.Errorf("string changed: %q", s)
	}
	for _, bad := range []string{"", "{", "[1,]", "1 2", `{"a":1}x`, strings.Repeat("[", 20000)} {
		if _, err := FromJSON([]byte(bad)); err == nil {
			t.Errorf("FromJSON(%.20q) succeeded", bad)
		}
	}
}

// TestRoundTripFixtures encodes every JSON value found in the fixtures
// (encode inputs, decode expectations) with each delimiter, indent and
// version, decodes the text and compares with the original value.
func TestRoundTripFixtures(t *testing.T) {
	var values []Value
	for _, version := range []string{V4, V33} {
		files, _ := filepath.Glob(filepath.Join(shared.MustPath(t, "conformance", "toon", "v"+version, "fixtures"), "*", "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var ff fixtureFile
			mustUnmarshal(t, data, &ff)
			for _, tc := range ff.Tests {
				raw := tc.Input
				if ff.Category == "decode" {
					if tc.ShouldError {
						continue
					}
					raw = tc.Expected
				}
				v, err := FromJSON(raw)
				if err != nil {
					t.Fatal(err)
				}
				values = append(values, v)
			}
		}
	}
	n := 0
	for _, v := range values {
		for _, version := range []string{V4, V33} {
			for _, d := range []Delimiter{Comma, Tab, Pipe} {
				for _, ind := range []int{2, 4} {
					for _, fold := range []bool{false, true} {
						if fold && version == V4 {
							continue
						}
						doc, err := Marshal(v, EncodeOptions{Version: version, Delimiter: d, IndentSize: ind, KeyFolding: fold})
						if err != nil {
							t.Fatalf("encode %s: %v", jsonString(v), err)
						}
						got, err := Unmarshal(doc, DecodeOptions{Version: version, IndentSize: ind, ExpandPaths: fold})
						if fold {
							// Literal dotted keys clash with expanded
							// paths (spec 3.3 §13.4); other values must
							// decode, ignoring key order.
							if hasDottedKey(v) {
								continue
							}
							if err != nil || !unorderedEqual(got, v) {
								t.Errorf("v%s fold: %s\n%s\n got %s (%v)", version, jsonString(v), doc, jsonString(got), err)
							}
							continue
						}
						if err != nil || !unorderedEqual(got, v) {
							t.Errorf("v%s %q indent %d: %s\n%s\n got %s (%v)", version, rune(d), ind, jsonString(v), doc, jsonString(got), err)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d round trips over %d fixture values", n, len(values))
}

func hasDottedKey(v Value) bool {
	switch t := v.(type) {
	case *Object:
		for _, k := range t.Keys {
			if strings.Contains(k, ".") || hasDottedKey(t.Values[k]) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasDottedKey(x) {
				return true
			}
		}
	}
	return false
}

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.after -= len(p); w.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestEncodeWriterError(t *testing.T) {
	arr := make([]any, 20000)
	for i := range arr {
		arr[i] = i
	}
	err := Encode(&failWriter{after: 1000}, []any{arr, "x"}, EncodeOptions{})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("got %v, want the writer's error", err)
	}
}
