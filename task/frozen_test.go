package task

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

func sampleSet() *Set {
	s := &Set{Name: "t", Seed: 3,
		Contexts: []Context{{ID: "c1", Text: "G describes a graph.\n"}},
		Questions: []Question{{ID: "q1", Family: "graphqa", Task: "node_count",
			Text: "Q: How many nodes are in this graph?\nA: ", Gold: Answer{Text: " 4.", Kind: KindInt, Value: "4"},
			ContextID: "c1", Meta: map[string]string{"b": "2", "a": "1"}}},
		Counts: []FamilyCount{{Family: "graphqa", Questions: 1, Candidates: 1}},
	}
	return s
}

func TestFrozenRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrozen(&buf, sampleSet()); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	// The hashes are SHA-1 of the texts (values from sha1sum).
	for _, h := range []string{
		`"sha1":"` + SHA1Hex("G describes a graph.\n") + `"`,
		`"question_sha1":"` + SHA1Hex("Q: How many nodes are in this graph?\nA: ") + `"`,
		`"meta":{"a":"1","b":"2"}`,
	} {
		if !strings.Contains(text, h) {
			t.Errorf("missing %s in\n%s", h, text)
		}
	}
	if SHA1Hex("abc") != "a9993e364706816aba3e25717850c26c9cd0d89d" { // FIPS 180-1 test vector
		t.Error("SHA1Hex")
	}
	back, err := ReadFrozen(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := WriteFrozen(&again, back); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Errorf("not stable:\n%s\n%s", text, again.String())
	}
}

func TestFrozenTampering(t *testing.T) {
	var buf bytes.Buffer
	WriteFrozen(&buf, sampleSet())
	good := buf.String()
	cases := map[string]string{
		"context text":   strings.Replace(good, "G describes a graph.", "G describes a tree.", 1),
		"question text":  strings.Replace(good, "How many nodes", "How many edges", 1),
		"gold answer":    strings.Replace(good, `"text":" 4."`, `"text":" 5."`, 1),
		"unknown ctx":    strings.Replace(good, `"context_id":"c1"`, `"context_id":"c2"`, 1),
		"duplicate":      good + good[strings.Index(good, `{"type":"question"`):],
		"no header":      good[strings.Index(good, "\n")+1:],
		"bad json":       strings.Replace(good, `{"type":"question"`, `{"type":"question",,`, 1),
		"unknown field":  strings.Replace(good, `{"type":"question"`, `{"type":"question","extra":1`, 1),
		"unknown record": good + `{"type":"other"}` + "\n",
	}
	for name, text := range cases {
		_, err := ReadFrozen(strings.NewReader(text))
		var pe *rdf.ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 1 {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

func FuzzReadFrozen(f *testing.F) {
	var buf bytes.Buffer
	WriteFrozen(&buf, sampleSet())
	f.Add(buf.Bytes())
	f.Add([]byte(`{"type":"set"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadFrozen(bytes.NewReader(b))
		if err != nil {
			var pe *rdf.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteFrozen(&out, s); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFrozen(&out); err != nil {
			t.Fatalf("rewritten set does not verify: %v", err)
		}
	})
}

func TestWriteSetFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := sampleSet(), sampleSet()
	a.Name, b.Name = "arm-a", "arm-b"
	names, err := WriteSetFiles(dir, []*Set{a, b})
	if err != nil || strings.Join(names, ",") != "arm-a.jsonl,arm-b.jsonl" {
		t.Fatalf("%v %v", names, err)
	}
	f, err := os.Open(filepath.Join(dir, "arm-b.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := ReadFrozen(f)
	if err != nil || back.Name != "arm-b" || len(back.Questions) != 1 {
		t.Errorf("read back %+v %v", back, err)
	}
	for _, bad := range []string{"", "../x", "a/b", ".."} {
		s := sampleSet()
		s.Name = bad
		if _, err := WriteSetFiles(dir, []*Set{s}); err == nil {
			t.Errorf("set name %q accepted", bad)
		}
	}
	if _, err := WriteSetFiles(dir, []*Set{a, a}); err == nil || !strings.Contains(err.Error(), "two sets") {
		t.Errorf("duplicate names: %v", err)
	}
}

func TestWithMeta(t *testing.T) {
	q := Question{Meta: map[string]string{"a": "1"}}
	r := q.WithMeta("a", "2", "b", "3")
	if q.Meta["a"] != "1" || len(q.Meta) != 1 || r.Meta["a"] != "2" || r.Meta["b"] != "3" {
		t.Errorf("%v %v", q.Meta, r.Meta)
	}
	if (Question{}).WithMeta("k", "v").Meta["k"] != "v" {
		t.Error("nil Meta")
	}
}
