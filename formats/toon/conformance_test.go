package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf/rdferr"
)

// fixtureFile is the upstream fixture format (toon-format/spec tests/).
type fixtureFile struct {
	Version  string `json:"version"`
	Category string `json:"category"`
	Tests    []struct {
		Name        string                     `json:"name"`
		Input       json.RawMessage            `json:"input"`
		Expected    json.RawMessage            `json:"expected"`
		ShouldError bool                       `json:"shouldError"`
		Options     map[string]json.RawMessage `json:"options"`
	} `json:"tests"`
}

// knownFailures lists fixtures this package does not pass, with the reason,
// keyed "version/category/file#test name". It is empty: every fixture of
// the supported versions passes.
var knownFailures = map[string]string{}

func encodeOptions(t *testing.T, version string, raw map[string]json.RawMessage) EncodeOptions {
	o := EncodeOptions{Version: version}
	for k, v := range raw {
		switch k {
		case "delimiter":
			o.Delimiter = Delimiter(fixture[string](t, v)[0])
		case "indent", "indentSize":
			mustUnmarshal(t, v, &o.IndentSize)
		case "keyFolding":
			o.KeyFolding = fixture[string](t, v) == "safe"
		case "flattenDepth":
			if o.FlattenDepth = fixture[int](t, v); o.FlattenDepth == 0 {
				o.FlattenDepth = 1 // spec: 0 folds nothing; our 0 means unlimited
			}
		case "lengthMarker":
			o.LengthMarker = fixture[string](t, v) == "#"
		default:
			t.Fatalf("unknown encode option %q", k)
		}
	}
	return o
}

func decodeOptions(t *testing.T, version string, raw map[string]json.RawMessage) DecodeOptions {
	o := DecodeOptions{Version: version}
	for k, v := range raw {
		switch k {
		case "indent", "indentSize":
			mustUnmarshal(t, v, &o.IndentSize)
		case "strict":
			o.NonStrict = !fixture[bool](t, v)
		case "expandPaths":
			o.ExpandPaths = fixture[string](t, v) == "safe"
		default:
			t.Fatalf("unknown decode option %q", k)
		}
	}
	return o
}

// fixture returns data unmarshalled as a T.
func fixture[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	mustUnmarshal(t, data, &v)
	return v
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("fixture: %v", err)
	}
}

// equalValues compares two values of the JSON model: object keys in order,
// numbers by value (through their canonical form).
func equalValues(a, b Value) bool { return valuesEqual(a, b, true) }

// unorderedEqual compares values ignoring object key order, the equality
// spec §2 grants tabular and keyed forms (they reorder keys to the header).
func unorderedEqual(a, b Value) bool { return valuesEqual(a, b, false) }

// valuesEqual compares two values of the JSON model, object keys in order
// when ordered, numbers by value (through their canonical form).
func valuesEqual(a, b Value, ordered bool) bool {
	switch x := a.(type) {
	case *Object:
		y, ok := b.(*Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i, k := range x.Keys {
			yv, ok := y.Values[k]
			if !ok || ordered && y.Keys[i] != k || !valuesEqual(x.Values[k], yv, ordered) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !valuesEqual(x[i], y[i], ordered) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	default: // numbers of any Go type compare by canonical form
		if !isPrimitive(b) {
			return false
		}
		if _, s := b.(string); s {
			return false
		}
		if _, s := b.(bool); s || b == nil {
			return false
		}
		cx, err1 := primitiveLiteral(a)
		cy, err2 := primitiveLiteral(b)
		return err1 == nil && err2 == nil && cx == cy
	}
}

func jsonString(v Value) string {
	b, err := ToJSON(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

type suiteCount struct{ pass, fail, known int }

// runFixtureFile runs one fixture file and returns its counts.
func runFixtureFile(t *testing.T, version, path string) suiteCount {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ff fixtureFile
	if err := json.Unmarshal(data, &ff); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var c suiteCount
	base := version + "/" + ff.Category + "/" + filepath.Base(path)
	for _, tc := range ff.Tests {
		id := base + "#" + tc.Name
		var problem string
		switch ff.Category {
		case "encode":
			problem = runEncodeCase(t, version, tc.Input, tc.Expected, tc.Options)
		case "decode":
			problem = runDecodeCase(t, version, tc.Input, tc.Expected, tc.ShouldError, tc.Options)
		default:
			t.Fatalf("%s: unknown category %q", path, ff.Category)
		}
		reason, known := knownFailures[id]
		switch {
		case problem == "" && known:
			t.Errorf("%s passes but is listed as a known failure (%s)", id, reason)
			c.pass++
		case problem == "":
			c.pass++
		case known:
			c.known++
			t.Logf("KNOWN FAILURE %s: %s", id, reason)
		default:
			c.fail++
			t.Errorf("%s: %s", id, problem)
		}
	}
	return c
}

func runEncodeCase(t *testing.T, version string, input, expected json.RawMessage, opts map[string]json.RawMessage) string {
	v, err := FromJSON(input)
	if err != nil {
		return "bad input: " + err.Error()
	}
	var want string
	mustUnmarshal(t, expected, &want)
	got, err := Marshal(v, encodeOptions(t, version, opts))
	if err != nil {
		return "encode error: " + err.Error()
	}
	if string(got) != want {
		return fmt.Sprintf("encode mismatch\n got: %q\nwant: %q", got, want)
	}
	return ""
}

func runDecodeCase(t *testing.T, version string, input, expected json.RawMessage, shouldError bool, opts map[string]json.RawMessage) string {
	var src string
	mustUnmarshal(t, input, &src)
	got, err := Decode(strings.NewReader(src), decodeOptions(t, version, opts))
	if shouldError {
		if err == nil {
			return "expected an error, got " + jsonString(got)
		}
		var pe *rdferr.ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 1 {
			return fmt.Sprintf("error without position: %v", err)
		}
		return ""
	}
	if err != nil {
		return "decode error: " + err.Error()
	}
	want, err := FromJSON(expected)
	if err != nil {
		return "bad expected value: " + err.Error()
	}
	if !equalValues(got, want) {
		return fmt.Sprintf("decode mismatch\n got: %s\nwant: %s", jsonString(got), jsonString(want))
	}
	return ""
}

// TestConformance runs every encode and decode fixture of the TOON spec
// repository for spec 4.0 and 3.3.
func TestConformance(t *testing.T) {
	for _, version := range []string{V4, V33} {
		dir := shared.MustPath(t, "conformance", "toon", "v"+version, "fixtures")
		var total suiteCount
		for _, cat := range []string{"encode", "decode"} {
			files, err := filepath.Glob(filepath.Join(dir, cat, "*.json"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no fixtures in %s/%s: %v", dir, cat, err)
			}
			sort.Strings(files)
			var catTotal suiteCount
			for _, f := range files {
				c := runFixtureFile(t, version, f)
				line := fmt.Sprintf("toon v%s %s/%s: %d passed, %d failed, %d known failures",
					version, cat, filepath.Base(f), c.pass, c.fail, c.known)
				t.Log(line)
				catTotal.pass += c.pass
				catTotal.fail += c.fail
				catTotal.known += c.known
			}
			line := fmt.Sprintf("toon v%s %s total: %d passed, %d failed, %d known failures",
				version, cat, catTotal.pass, catTotal.fail, catTotal.known)
			t.Log(line)
			total.pass += catTotal.pass
			total.fail += catTotal.fail
			total.known += catTotal.known
		}
		line := fmt.Sprintf("toon v%s TOTAL: %d passed, %d failed, %d known failures",
			version, total.pass, total.fail, total.known)
		t.Log(line)
	}
}

// TestLegacyLengthMarker runs the v1.5 fixtures of the lengthMarker option
// (the [#N] form removed in spec 2.0), which EncodeOptions.LengthMarker keeps.
func TestLegacyLengthMarker(t *testing.T) {
	path := shared.MustPath(t, "conformance", "toon", "v1.5", "fixtures", "encode", "options.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ff fixtureFile
	mustUnmarshal(t, data, &ff)
	n := 0
	for _, tc := range ff.Tests {
		if _, ok := tc.Options["lengthMarker"]; !ok {
			continue
		}
		n++
		if p := runEncodeCase(t, V33, tc.Input, tc.Expected, tc.Options); p != "" {
			t.Errorf("%s: %s", tc.Name, p)
			continue
		}
		// The legacy output decodes back with DecodeOptions.LengthMarker.
		v, _ := FromJSON(tc.Input)
		var doc string
		mustUnmarshal(t, tc.Expected, &doc)
		got, err := Unmarshal([]byte(doc), DecodeOptions{LengthMarker: true})
		if err != nil || !equalValues(got, v) {
			t.Errorf("%s: legacy decode: %v %s", tc.Name, err, jsonString(got))
		}
		if _, err := Unmarshal([]byte(doc), DecodeOptions{}); err == nil && strings.Contains(doc, "[#") {
			t.Errorf("%s: [#N] accepted without LengthMarker", tc.Name)
		}
	}
	if n == 0 {
		t.Fatal("no lengthMarker fixtures found")
	}
	line := fmt.Sprintf("toon v1.5 lengthMarker fixtures: %d run", n)
	t.Log(line)
}

// TestExamples checks the spec repository's examples: each conversion pair
// encodes and decodes both ways, valid samples decode, invalid ones fail.
func TestExamples(t *testing.T) {
	for _, version := range []string{V4, V33} {
		dir := shared.MustPath(t, "conformance", "toon", "v"+version, "examples")
		pass := 0
		pairs, _ := filepath.Glob(filepath.Join(dir, "conversions", "*.json"))
		more, _ := filepath.Glob(filepath.Join(dir, "valid", "*.json"))
		pairs = append(pairs, more...)
		for _, jf := range pairs {
			tf := strings.TrimSuffix(jf, ".json") + ".toon"
			jdata, err1 := os.ReadFile(jf)
			tdata, err2 := os.ReadFile(tf)
			if err1 != nil || err2 != nil {
				t.Fatalf("%v %v", err1, err2)
			}
			want, err := FromJSON(jdata)
			if err != nil {
				t.Fatalf("%s: %v", jf, err)
			}
			doc := string(bytes.TrimRight(tdata, "\n"))
			dopts := DecodeOptions{Version: version}
			eopts := EncodeOptions{Version: version}
			if strings.Contains(jf, "key-folding") {
				dopts.ExpandPaths = true
				eopts.KeyFolding = true
			}
			got, err := Unmarshal(tdata, dopts)
			if err != nil || !equalValues(got, want) {
				t.Errorf("v%s %s: decode: %v\n got: %s\nwant: %s", version, filepath.Base(tf), err, jsonString(got), jsonString(want))
				continue
			}
			enc, err := Marshal(want, eopts)
			if err != nil || string(enc) != doc {
				t.Errorf("v%s %s: encode: %v\n got: %q\nwant: %q", version, filepath.Base(jf), err, enc, doc)
				continue
			}
			pass++
		}
		valid, _ := filepath.Glob(filepath.Join(dir, "valid", "*.toon"))
		for _, tf := range valid {
			data, _ := os.ReadFile(tf)
			if _, err := Unmarshal(data, DecodeOptions{Version: version}); err != nil {
				t.Errorf("v%s %s: %v", version, filepath.Base(tf), err)
				continue
			}
			pass++
		}
		invalid, _ := filepath.Glob(filepath.Join(dir, "invalid", "*.toon"))
		for _, tf := range invalid {
			data, _ := os.ReadFile(tf)
			if v, err := Unmarshal(data, DecodeOptions{Version: version}); err == nil {
				t.Errorf("v%s %s: accepted invalid input as %s", version, filepath.Base(tf), jsonString(v))
				continue
			}
			pass++
		}
		line := fmt.Sprintf("toon v%s examples: %d passed of %d", version, pass, len(pairs)+len(valid)+len(invalid))
		t.Log(line)
	}
}
