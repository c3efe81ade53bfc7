package toon

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf/rdferr"
)

// FuzzDecode checks that Decode never panics, reports bad input as
// *rdferr.ParseError, and that whatever it accepts survives encode → decode
// (strict) unchanged up to the key order tabular forms impose, with a stable
// second encoding.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"a: 1", "[2]: x,y", "items[2]{id,name}:\n  1,Ada\n  2,Bob", "m[2:]{v}:\n  a: 1\n  b: 2",
		"items[3]:\n  - a\n  - b: 1\n    c: 2\n  -", "x:\n  y:\n    z: \"q\\n\"", "# c\nn: -1.5e3",
		"o[1]{a{b,c}|d}:\n  1,2,3", "a.b.c: 1\na.d: 2",
	} {
		f.Add([]byte(s), false, false)
	}
	// The decode fixtures are good seeds when the shared folder is present.
	if dir, err := shared.Path("conformance", "toon", "v4.0", "fixtures", "decode"); err == nil {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				continue
			}
			var ff fixtureFile
			if json.Unmarshal(data, &ff) != nil {
				continue
			}
			for _, tc := range ff.Tests {
				var s string
				if json.Unmarshal(tc.Input, &s) == nil {
					f.Add([]byte(s), false, false)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, nonStrict, v33 bool) {
		version := V4
		if v33 {
			version = V33
		}
		v, err := Unmarshal(data, DecodeOptions{Version: version, NonStrict: nonStrict})
		if err != nil {
			var pe *rdferr.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *rdferr.ParseError: %v", err)
			}
			return
		}
		enc, err := Marshal(v, EncodeOptions{Version: version, MaxDepth: 10000})
		if err != nil {
			t.Fatalf("encode of decoded value failed: %v\nvalue: %s", err, jsonString(v))
		}
		v2, err := Unmarshal(enc, DecodeOptions{Version: version})
		if err != nil {
			t.Fatalf("re-decode failed: %v\ninput: %q\nencoded: %q", err, data, enc)
		}
		if !unorderedEqual(v, v2) {
			t.Fatalf("round trip changed the value\ninput: %q\nfirst:  %s\nsecond: %s\nencoded: %q", data, jsonString(v), jsonString(v2), enc)
		}
		enc2, err := Marshal(v2, EncodeOptions{Version: version, MaxDepth: 10000})
		if err != nil || string(enc2) != string(enc) {
			t.Fatalf("second encoding differs (%v)\n%q\n%q", err, enc, enc2)
		}
	})
}
