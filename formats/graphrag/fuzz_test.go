package graphrag

import (
	"os"
	"strings"
	"testing"
)

// FuzzDecode feeds arbitrary text to every decoder: none may panic or hang,
// and whatever decodes must re-encode to a text that decodes to the same
// graph.
func FuzzDecode(f *testing.F) {
	for _, name := range referenceFormats {
		if b, err := os.ReadFile("testdata/default/graph." + name + ".txt"); err == nil {
			f.Add(uint8(0), string(b[:min(len(b), 600)]))
		}
	}
	f.Add(uint8(4), "#graph-v1\nN|a\\p|s\nE|a\\p|d|b\\\\")
	f.Add(uint8(5), "#graph-dict-v1\nREL|d=depends_on\nTYPE|s=service\nN|a|s\nE|a|d|a")
	f.Add(uint8(3), "kind,a,b,c\nN,\"a,\"\"b\",s,\nE,x,\"r\nr\",y\r\n")
	f.Add(uint8(2), "{\"k\":\"n\",\"id\":\"\\u00e9\\ud83d\\ude00\",\"t\":\"s\"}\n\n{\"k\":\"e\",\"s\":\"a\",\"r\":\"b\",\"t\":\"c\"}")
	f.Add(uint8(1), `{"n":[["a","b"]],"e":[["a","r","a"]]}`)
	formats := Formats()
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		ft := formats[int(which)%len(formats)]
		g, err := ft.Decode(strings.NewReader(text), DecodeOptions{})
		if err != nil {
			return
		}
		var b strings.Builder
		if err := ft.Encode(&b, g); err != nil {
			t.Fatalf("%s: re-encoding a decoded graph: %v", ft.Name, err)
		}
		g2, err := ft.Decode(strings.NewReader(b.String()), DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: decoding our own output %q: %v", ft.Name, b.String(), err)
		}
		if !Equal(g, g2) {
			t.Fatalf("%s: round trip changed the graph: %q", ft.Name, b.String())
		}
	})
}
