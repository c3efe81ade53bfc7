package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/rdftest"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/rdfio"
)

// runCLI runs isolda with the given arguments and standard input; an
// empty stdin is no standard input at all (as a terminal), so the commands
// that read a graph read the embedded demo graph.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var in io.Reader
	if stdin != "" {
		in = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	code = run(args, &Env{Stdin: in, Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	return writeIn(t, t.TempDir(), name, content)
}

// writeIn writes content to dir/name, which it returns.
func writeIn(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// evalRun runs isolda eval run on the experiment exp into the folder out
// and fails the test unless it exits 0.
func evalRun(t *testing.T, exp, out string) {
	t.Helper()
	if code, _, errs := runCLI(t, "", "eval", "run", exp, "--out", out); code != 0 {
		t.Fatalf("eval run: exit %d: %s", code, errs)
	}
}

// demoEvalRun writes demoTurtle to dir/g.ttl and the experiment y (on
// g.ttl) to dir/exp.yaml, runs it into dir/run (evalRun) and returns that
// run folder.
func demoEvalRun(t *testing.T, dir, y string) string {
	t.Helper()
	writeIn(t, dir, "g.ttl", demoTurtle)
	runDir := filepath.Join(dir, "run")
	evalRun(t, writeIn(t, dir, "exp.yaml", y), runDir)
	return runDir
}

const demoTurtle = `@prefix ex: <http://example.org/> .
ex:a a ex:T ; ex:name "A" ; ex:knows ex:b .
ex:b a ex:T ; ex:name "B" .
`

func TestStatsFirstLineIsQuadCount(t *testing.T) {
	code, out, errs := runCLI(t, demoTurtle, "stats", "-f", "ttl", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	first, _, _ := strings.Cut(out, "\n")
	if first != "5" {
		t.Errorf("first line %q, want 5 (quads)", first)
	}
	if !strings.Contains(out, "2  http://example.org/T") {
		t.Errorf("types missing from:\n%s", out)
	}
}

func TestStatsDefaultsToEmbeddedExample(t *testing.T) {
	code, out, _ := runCLI(t, "", "stats")
	if code != 0 || !strings.HasPrefix(out, "28\n") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestBadInputExit2WithPosition(t *testing.T) {
	p := writeFile(t, "bad.ttl", "@prefix ex: <http://e/> .\nex:a ex:b .\n")
	code, _, errs := runCLI(t, "", "stats", p)
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(p) + `:2:\d+: `).MatchString(errs) {
		t.Errorf("stderr %q does not name FILE:LINE:COL", errs)
	}
	if code, _, _ := runCLI(t, "", "stats", "--no-such-flag"); code != 2 {
		t.Errorf("bad usage: exit %d, want 2", code)
	}
}

func TestConvertEverySyntaxRoundTrips(t *testing.T) {
	want := rdftest.Read(t, demoTurtle, rdfio.Options{Format: rdfio.Turtle})
	for _, to := range []string{"nquads", "ntriples", "turtle", "trig", "jsonld", "jsonld-compact", "rdfxml"} {
		code, out, errs := runCLI(t, demoTurtle, "convert", "-f", "ttl", "-", "-t", to)
		if code != 0 {
			t.Fatalf("convert -t %s: exit %d: %s", to, code, errs)
		}
		got, err := rdfio.Read(strings.NewReader(out), rdfio.Options{})
		if err != nil {
			t.Fatalf("convert -t %s output does not read back: %v\n%s", to, err, out)
		}
		if iso, err := canon.Isomorphic(want, got); err != nil || !iso {
			t.Errorf("convert -t %s: not isomorphic\n%s", to, out)
		}
	}
	if code, _, _ := runCLI(t, demoTurtle, "convert", "-"); code != 2 {
		t.Errorf("convert without -t: exit %d, want 2", code)
	}
}

func TestEncodeDecodeCheck(t *testing.T) {
	code, doc, errs := runCLI(t, demoTurtle, "encode", "-f", "ttl", "-")
	if code != 0 {
		t.Fatalf("encode: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(doc, "# ISOLDA 0.4") {
		t.Errorf("encode output does not start with the 0.4 glossary:\n%s", doc)
	}
	code, nq, errs := runCLI(t, doc, "decode", "-")
	if code != 0 {
		t.Fatalf("decode: exit %d: %s", code, errs)
	}
	want, _ := rdfio.Read(strings.NewReader(demoTurtle), rdfio.Options{Format: rdfio.Turtle})
	got := rdftest.Read(t, nq, rdfio.Options{Format: rdfio.NQuads})
	if iso, _ := canon.Isomorphic(want, got); !iso {
		t.Errorf("decode(encode(x)) not isomorphic:\n%s", nq)
	}
	if code, out, _ := runCLI(t, demoTurtle, "check", "-f", "ttl", "-"); code != 0 || !strings.HasPrefix(out, "ok:") {
		t.Errorf("check: exit %d, %q", code, out)
	}
	if code, out, _ := runCLI(t, "", "check", "--spec", "0.1"); code != 0 {
		t.Errorf("check --spec 0.1 on the embedded example: exit %d, %q", code, out)
	}
	code, _, errs = runCLI(t, "not isolda at all {{{\n", "decode", "-")
	if code != 2 || !strings.Contains(errs, "<stdin>:") {
		t.Errorf("decode of garbage: exit %d, stderr %q", code, errs)
	}
}
