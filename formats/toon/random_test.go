package toon

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// Strings and keys that stress quoting: delimiters, markers, numeric-like
// and literal-like text, escapes, whitespace, Unicode.
var (
	trickyStrings = []string{"", " ", "a b", " lead", "trail ", "\tx", "x,y", "x|y", "x\ty", "a:b", "-", "-x", "- item",
		"#", "#x", "x#", "true", "false", "null", "True", "42", "-3.14", "05", "+1", "1e-6", "1E+5", ".5", "1.",
		"[]", "[2]: x", "{k}", "\"q\"", "back\\slash", "line\nbreak", "cr\rx", "\x01ctl", "é", "日本", "😀 ok",
		"\u00a0nbsp", "x\u2028y", "\ufeffbom", "plain", "Ada_99", "a.b"}
	trickyKeys = []string{"a", "b", "id", "name", "", " ", "a.b", "x-y", "2k", "#k", "-k", "k:v", "k,v", "k|v", "k\tv",
		"__proto__", "constructor", "é", "q\"k", "[i]", "{b}", "_p", "A_1", "n\nl"}
)

type gen struct {
	r      *rand.Rand
	noDots bool
}

func (g *gen) key() string {
	for {
		k := trickyKeys[g.r.IntN(len(trickyKeys))]
		if !g.noDots || !strings.Contains(k, ".") {
			return k
		}
	}
}

func (g *gen) primitive() Value {
	switch g.r.IntN(8) {
	case 0:
		return nil
	case 1:
		return g.r.IntN(2) == 0
	case 2:
		return g.r.IntN(2001) - 1000
	case 3:
		return g.r.NormFloat64() * 1e3
	case 4:
		return json.Number([]string{"1e-7", "123456789012345678901234567890", "-0", "0.1", "1e21"}[g.r.IntN(5)])
	default:
		return trickyStrings[g.r.IntN(len(trickyStrings))]
	}
}

// uniform builds an object with a fixed key set whose values follow a
// template, so arrays of such objects are tabular (and, in 4.0, objects of
// them keyed).
func (g *gen) uniform(keys []string, nestedAt int, depth int) *Object {
	o := NewObject(len(keys))
	for i, k := range keys {
		if i == nestedAt && depth < 3 {
			o.Set(k, g.uniform([]string{"x", "y z"}, -1, depth+1))
			continue
		}
		o.Set(k, g.primitive())
	}
	return o
}

func (g *gen) value(depth int) Value {
	if depth > 4 {
		return g.primitive()
	}
	switch g.r.IntN(9) {
	case 0, 1, 2:
		return g.primitive()
	case 3:
		n := g.r.IntN(4)
		arr := make([]any, n)
		for i := range arr {
			arr[i] = g.primitive()
		}
		return arr
	case 4: // table
		keys := g.distinctKeys(1 + g.r.IntN(3))
		nested := g.r.IntN(len(keys) + 1)
		arr := make([]any, 1+g.r.IntN(3))
		for i := range arr {
			arr[i] = g.uniform(keys, nested, 0)
		}
		return arr
	case 5: // keyed-eligible object
		keys := g.distinctKeys(1 + g.r.IntN(3))
		nested := g.r.IntN(len(keys) + 1)
		o := NewObject(3)
		for _, k := range g.distinctKeys(1 + g.r.IntN(3)) {
			o.Set(k, g.uniform(keys, nested, 0))
		}
		return o
	case 6:
		n := g.r.IntN(4)
		arr := make([]any, n)
		for i := range arr {
			arr[i] = g.value(depth + 1)
		}
		return arr
	default:
		n := g.r.IntN(4)
		o := NewObject(n)
		for range n {
			o.Set(g.key(), g.value(depth+1))
		}
		return o
	}
}

func (g *gen) distinctKeys(n int) []string {
	seen := map[string]bool{}
	var ks []string
	for len(ks) < n {
		k := g.key()
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	return ks
}

// TestRandomRoundTrip encodes random values under every option combination
// and checks that decoding gives the value back (key order aside, which
// tables may change) and that re-encoding is stable.
func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 11))
	runs := 0
	for i := range 3000 {
		fold := i%4 == 3
		g := &gen{r: r, noDots: fold}
		v := g.value(0)
		version := V4
		if i%2 == 1 || fold {
			version = V33
		}
		eo := EncodeOptions{Version: version, Delimiter: []Delimiter{Comma, Tab, Pipe}[r.IntN(3)],
			IndentSize: 1 + r.IntN(4), KeyFolding: fold, FlattenDepth: r.IntN(4)}
		doc, err := Marshal(v, eo)
		if err != nil {
			t.Fatalf("encode %s: %v", jsonString(v), err)
		}
		if strings.HasSuffix(string(doc), "\n") || strings.Contains(string(doc), " \n") {
			t.Fatalf("trailing newline or space in %q", doc)
		}
		got, err := Unmarshal(doc, DecodeOptions{Version: version, IndentSize: eo.IndentSize, ExpandPaths: fold})
		if err != nil {
			t.Fatalf("decode failed: %v\nvalue: %s\ndoc:\n%s", err, jsonString(v), doc)
		}
		if !unorderedEqual(got, v) {
			t.Fatalf("round trip changed value (%+v)\nvalue: %s\n  got: %s\ndoc:\n%s", eo, jsonString(v), jsonString(got), doc)
		}
		again, err := Marshal(got, eo)
		if err != nil || string(again) != string(doc) {
			t.Fatalf("re-encoding differs (%v)\n%s\n---\n%s", err, doc, again)
		}
		runs++
	}
	t.Logf("%d random round trips", runs)
}
