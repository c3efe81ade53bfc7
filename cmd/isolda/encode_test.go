package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEncodeGlossaryFile checks --glossary-file: the glossary goes to the
// file, the body (with its @isolda line) to stdout, the two make the
// document encode writes, and the body decodes alone.
func TestEncodeGlossaryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "glossary.txt")
	code, body, errs := runCLI(t, demoTurtle, "encode", "-f", "ttl", "--glossary-file", path, "-")
	if code != 0 {
		t.Fatalf("encode --glossary-file: exit %d: %s", code, errs)
	}
	gloss, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(gloss), "# ISOLDA 0.4: ") || strings.Contains(string(gloss), "\n@") {
		t.Errorf("glossary file:\n%s", gloss)
	}
	first, rest, _ := strings.Cut(body, "\n")
	if first != "@isolda 0.4" {
		t.Errorf("body starts with %q, want @isolda 0.4", first)
	}
	_, doc, _ := runCLI(t, demoTurtle, "encode", "-f", "ttl", "-")
	if string(gloss)+"\n"+rest != doc {
		t.Errorf("glossary + body:\n%s\n%s\nwant the document:\n%s", gloss, rest, doc)
	}
	if code, nq, errs := runCLI(t, body, "decode", "-"); code != 0 || strings.Count(nq, "\n") != 5 {
		t.Errorf("decode of the body alone: exit %d, %d quads: %s", code, strings.Count(nq, "\n"), errs)
	}
}
