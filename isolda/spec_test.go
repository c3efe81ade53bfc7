package isolda

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf/canon"
)

type specExample struct {
	name, version, input, want string
	opts                       Options
	line                       int
}

// optionWords parses the option words of an example marker, named like the
// CLI flags: ids=slug, glossary=legend, no-constants, inverse-index, ...
func optionWords(t *testing.T, version string, words []string) Options {
	o := Options{Version: version}
	for _, w := range words {
		switch w {
		case "layout=blocks":
			o.Layout = LayoutBlocks
		case "layout=hybrid":
			o.Layout = LayoutHybrid
		case "inline-bnodes":
			o.InlineBlanks = true
		case "continuation":
			o.Continuation = true
		case "ids=slug":
			o.IDs = IDsSlug
		case "glossary=legend":
			o.Glossary = GlossaryLegend
		case "glossary=none":
			o.Glossary = GlossaryNone
		case "no-constants":
			o.NoConstants = true
		case "no-types":
			o.NoTypes = true
		case "inverse-index":
			o.InverseIndex = true
		case "no-preferred-language":
			o.NoPreferredLanguage = true
		case "no-row-label-ids":
			o.NoRowLabelIDs = true
		case "no-term-aliases":
			o.NoTermAliases = true
		case "no-vocab-prefix":
			o.NoVocabPrefix = true
		case "iri-ids":
			o.IRIIDs = true
		case "datatype-prefixes":
			o.DatatypePrefixes = true
		default:
			if v, ok := strings.CutPrefix(w, "anchor="); ok {
				o.Anchor = v
				continue
			}
			if v, ok := strings.CutPrefix(w, "hops="); ok {
				h, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("bad hops %q in a SPEC.md example marker", v)
				}
				o.Hops = h
				continue
			}
			if v, ok := strings.CutPrefix(w, "theta="); ok {
				th, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("bad theta %q in a SPEC.md example marker", v)
				}
				o.Theta = th
				continue
			}
			t.Fatalf("unknown option word %q in a SPEC.md example marker", w)
		}
	}
	return o
}

// specPath finds docs/SPEC.md from this source file.
func specPath(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "docs", "SPEC.md")
}

var exampleMarker = regexp.MustCompile(`^<!-- example: (\S+) (0\.[1234])((?: \S+)*) -->$`)

// specExamples extracts the examples of docs/SPEC.md: after each marker, a
// fenced turtle or trig block (the input) and a fenced isolda block.
func specExamples(t *testing.T, text string) []specExample {
	lines := strings.Split(text, "\n")
	var out []specExample
	for i := 0; i < len(lines); i++ {
		m := exampleMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		ex := specExample{name: m[1], version: m[2], line: i + 1, opts: optionWords(t, m[2], strings.Fields(m[3]))}
		var blocks []string
		for j := i + 1; j < len(lines) && len(blocks) < 2; j++ {
			if !strings.HasPrefix(lines[j], "```") {
				continue
			}
			lang := strings.TrimPrefix(lines[j], "```")
			k := j + 1
			for k < len(lines) && lines[k] != "```" {
				k++
			}
			if k == len(lines) {
				t.Fatalf("SPEC.md:%d: unterminated code block", j+1)
			}
			want := map[int][]string{0: {"turtle", "trig"}, 1: {"isolda"}}[len(blocks)]
			ok := false
			for _, w := range want {
				ok = ok || lang == w
			}
			if !ok {
				t.Fatalf("SPEC.md:%d: example %s: block %q, want one of %v", j+1, ex.name, lang, want)
			}
			blocks = append(blocks, strings.Join(lines[j+1:k], "\n")+"\n")
			j = k
			i = k
		}
		if len(blocks) != 2 {
			t.Fatalf("SPEC.md:%d: example %s lacks its blocks", ex.line, ex.name)
		}
		ex.input, ex.want = blocks[0], blocks[1]
		out = append(out, ex)
	}
	return out
}

// TestSpecExamples encodes every example of docs/SPEC.md, requires the
// exact bytes shown, decodes them and requires an isomorphic dataset.
func TestSpecExamples(t *testing.T) {
	src, err := os.ReadFile(specPath(t))
	if err != nil {
		t.Fatal(err)
	}
	exs := specExamples(t, string(src))
	if len(exs) < 10 {
		t.Fatalf("found %d examples in SPEC.md, want at least 10", len(exs))
	}
	pass := 0
	for _, ex := range exs {
		d := readTurtle(t, ex.input, "http://example.org/base/")
		got := encodeString(t, d, ex.opts)
		// ISOLDA_SPEC_PRINT="NAME VERSION" prints the encoding, to draft a new
		// example; a drafted example is checked by hand against the rules of
		// SPEC.md before it goes in.
		if os.Getenv("ISOLDA_SPEC_PRINT") == ex.name+" "+ex.version {
			fmt.Print("\x00BEGIN\x00" + got + "\x00END\x00")
		}
		if got != ex.want {
			t.Errorf("SPEC.md:%d: example %s (%s): encoding differs\n--- got\n%s--- want\n%s", ex.line, ex.name, ex.version, got, ex.want)
			continue
		}
		back, err := Decode(strings.NewReader(ex.want))
		if err != nil {
			t.Errorf("SPEC.md:%d: example %s: decode: %v", ex.line, ex.name, err)
			continue
		}
		ref, err := Crop(d, ex.opts)
		if err != nil {
			t.Fatal(err)
		}
		if iso, err := canon.Isomorphic(ref, back); err != nil || !iso {
			t.Errorf("SPEC.md:%d: example %s: decoded dataset is not isomorphic to the input (%v)", ex.line, ex.name, err)
			continue
		}
		pass++
	}
	msg := fmt.Sprintf("SPEC.md examples: %d, pass %d, fail %d", len(exs), pass, len(exs)-pass)
	t.Log(msg)
}

// TestSpecGlossary requires every glossary entry, with its exact wording,
// in the glossary table of docs/SPEC.md.
func TestSpecGlossary(t *testing.T) {
	src, err := os.ReadFile(specPath(t))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	entries := append([]struct{ flag, text string }{{"head02", head02}, {"head01", head01}, {"head03", head03}, {"head04", head04}}, glossary...)
	for _, g := range append(entries, glossary04...) {
		if !strings.Contains(text, strings.ReplaceAll(g.text, "|", `\|`)) {
			t.Errorf("SPEC.md lacks the glossary entry %s: %s", g.flag, g.text)
		}
	}
}

// TestSpecWellKnown requires the table of well-known prefixes of docs/SPEC.md
// section 17.3 to list exactly the prefixes a 0.4 document predeclares.
func TestSpecWellKnown(t *testing.T) {
	src, err := os.ReadFile(specPath(t))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(src), "**Well-known prefixes.**")
	sec, _, _ = strings.Cut(sec, "**Other prefixes.**")
	cell := regexp.MustCompile("`([a-z0-9]+)` \\| `([^`]+)`")
	got := map[string]string{}
	for _, m := range cell.FindAllStringSubmatch(sec, -1) {
		got[m[1]] = m[2]
	}
	want := WellKnownPrefixes()
	if len(got) != len(want) {
		t.Errorf("SPEC.md 17.3 lists %d well-known prefixes, the encoder has %d", len(got), len(want))
	}
	for _, p := range want {
		if got[p.Name] != p.IRI {
			t.Errorf("SPEC.md 17.3: prefix %s is %q, the encoder has %q", p.Name, got[p.Name], p.IRI)
		}
	}
}
