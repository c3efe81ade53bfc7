package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestDepthBomb: 200 KB of "[" is refused by the depth pre-scan, with a
// position, and without handing the document to go-yaml (which took
// gigabytes on it); the allocation bound is what tells the two apart.
func TestDepthBomb(t *testing.T) {
	data := []byte(strings.Repeat("[", 100000))
	var err error
	allocs := testing.AllocsPerRun(3, func() { _, err = ParseExperiment(data, "bomb.yaml") })
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, rdf.ErrLimit) || pe.Line != 1 {
		t.Fatalf("got %v, want a depth limit error at line 1", err)
	}
	if allocs > 10 {
		t.Errorf("%v allocations to refuse the bomb", allocs)
	}
}

// TestValidateHostile: names that could steer a path, files that are not
// regular files and numbers outside their documented ranges are refused up
// front, each at its line.
func TestValidateHostile(t *testing.T) {
	base := func(name, file, extra string) string {
		return "name: " + name + "\ngraphs: [{name: g, file: " + file + "}]\narms: [{format: b-ttl}]\n" +
			"models: [{base_url: 'http://h/v1', model: m}]\ntasks: [{generate: {}}]\n" + extra
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "g.ttl"), []byte("<a> <b> <c> .\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ yaml, msg string }{
		{base("../../../tmp/x", "g.ttl", ""), "experiment name"},
		{base(`'a\b'`, "g.ttl", ""), "experiment name"},
		{base("x", "/dev/zero", ""), "not a regular file"},
		{base("x", "g.ttl", "timeout_seconds: 1e308\n"), "timeout_seconds must be between"},
		{base("x", "g.ttl", "timeout_seconds: .nan\n"), "timeout_seconds must be between"},
		{base("x", "g.ttl", "temperature: .nan\n"), "temperature"},
		{base("x", "g.ttl", "max_tokens: 100000000000\n"), "max_tokens must be between"},
		{base("x", "g.ttl", "max_answer_bytes: -1\n"), "max_answer_bytes must be between"},
		{base("x", "g.ttl", "max_answer_bytes: 1000000000\n"), "max_answer_bytes must be between"},
	}
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("exp%d.yaml", i))
		if err := os.WriteFile(path, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadExperiment(path)
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), c.msg) || ve.Problems[0].Line < 1 {
			t.Errorf("case %d: got %v, want a problem %q", i, err, c.msg)
		}
	}
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte(base("'ISOLDA paper §4.4 run (0.1)'", "g.ttl", "timeout_seconds: 600\nmax_answer_bytes: 65536\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if e, err := LoadExperiment(ok); err != nil || e.MaxAnswerBytes != 65536 {
		t.Errorf("valid experiment: %v", err)
	}
}
