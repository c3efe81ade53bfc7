package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/synth"
)

// chunkEntities runs isolda chunk and returns the entities of its lines,
// checking that every line has the documented fields.
func chunkEntities(t *testing.T, stdin string, args ...string) []string {
	t.Helper()
	code, out, errs := runCLI(t, stdin, append([]string{"chunk"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ents []string
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		for _, k := range []string{"entity", "format", "text", "tokens", "sha256", "statements_kept", "statements_total"} {
			if _, ok := m[k]; !ok {
				t.Fatalf("line without %s: %s", k, line)
			}
		}
		ents = append(ents, m["entity"].(string))
	}
	return ents
}

// TestChunkCommand checks the entities written for the demo graph (from a
// file, and piped), --class with a prefixed name, and the refusals.
func TestChunkCommand(t *testing.T) {
	want := "https://example.org/ada https://example.org/charles https://example.org/engine-project https://example.org/mary https://example.org/notes"
	if got := strings.Join(chunkEntities(t, "", "../../examples/demo.ttl"), " "); got != want {
		t.Errorf("entities %s", got)
	}
	demo, err := examples.Read(examples.Default)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(chunkEntities(t, string(demo), "-f", "ttl", "--glossary", "none"), " "); got != want {
		t.Errorf("piped: entities %s", got)
	}
	if got := strings.Join(chunkEntities(t, string(demo), "-f", "ttl", "--class", "schema:Person", "-t", "b-ttl-ids"), " "); got != "https://example.org/ada https://example.org/charles https://example.org/mary" {
		t.Errorf("--class schema:Person: entities %s", got)
	}
	for _, args := range [][]string{
		{"--class", "nope:Thing"},
		{"-t", "no-such-format"},
		{"--memory-limit", "lots"},
		{"--budget", "10"},
		{"--hops", "0"},
	} {
		code, _, errs := runCLI(t, "", append([]string{"chunk", "../../examples/demo.ttl"}, args...)...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}

// TestChunkSpills checks that a memory limit that makes the sorts spill to
// --tmp-dir gives the same lines, and that nothing is drawn on a standard
// error that is not a terminal.
func TestChunkSpills(t *testing.T) {
	var graph strings.Builder
	if err := synth.Write(&graph, synth.Options{Triples: 20_000, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	code, a, errs := runCLI(t, graph.String(), "chunk", "-f", "nt", "--budget", "200", "--glossary", "none")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	tmp := t.TempDir()
	code, b, errs := runCLI(t, graph.String(), "chunk", "-f", "nt", "--budget", "200", "--glossary", "none",
		"--memory-limit", "1MiB", "--tmp-dir", tmp)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if a != b || strings.Count(a, "\n") < 1000 {
		t.Fatalf("%d lines in memory, %d spilled; outputs differ: %v", strings.Count(a, "\n"), strings.Count(b, "\n"), a != b)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("files left in --tmp-dir: %v", left)
	}
	// --tmp-limit: enough, then too little.
	code, c, errs := runCLI(t, graph.String(), "chunk", "-f", "nt", "--budget", "200", "--glossary", "none",
		"--memory-limit", "1MiB", "--tmp-dir", tmp, "--tmp-limit", "1GiB")
	if code != 0 || errs != "" || c != a {
		t.Fatalf("--tmp-limit 1GiB: exit %d, stderr %q, output equal %v", code, errs, c == a)
	}
	code, _, errs = runCLI(t, graph.String(), "chunk", "-f", "nt", "--budget", "200", "--glossary", "none",
		"--memory-limit", "1MiB", "--tmp-dir", tmp, "--tmp-limit", "64KiB")
	if code != 2 || !strings.Contains(errs, "more than 65536 bytes of temporary files") || !strings.Contains(errs, "--tmp-limit 64KiB") {
		t.Fatalf("--tmp-limit 64KiB: exit %d, stderr %q", code, errs)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("files left in --tmp-dir after the limit: %v", left)
	}
}

// TestChunkShards checks that N-Triples shards of a graph give the
// documents of the whole file (blank nodes shared), while Turtle files
// keep their blank nodes apart.
func TestChunkShards(t *testing.T) {
	dir := t.TempDir()
	nt := "<http://e/a> <http://e/p> _:x .\n_:x <http://e/q> \"1\" .\n<http://e/b> <http://e/p> _:x .\n"
	lines := strings.SplitAfter(nt, "\n")
	write := func(name, s string) string {
		p := writeIn(t, dir, name, s)
		return p
	}
	whole := write("all.nt", nt)
	s1, s2 := write("s1.nt", lines[0]), write("s2.nt", lines[1]+lines[2])
	_, a, _ := runCLI(t, "", "chunk", "-t", "nquads", whole)
	_, b, _ := runCLI(t, "", "chunk", "-t", "nquads", s1, s2)
	if a != b || !strings.Contains(a, `\"1\"`) {
		t.Fatalf("whole file:\n%s\nshards:\n%s", a, b)
	}
	t1 := write("t1.ttl", "<http://e/a> <http://e/p> _:x .\n")
	t2 := write("t2.ttl", "_:x <http://e/q> \"1\" .\n")
	_, c, _ := runCLI(t, "", "chunk", "-t", "nquads", t1, t2)
	if strings.Contains(c, `\"1\"`) {
		t.Fatalf("the blank nodes of two Turtle files were merged:\n%s", c)
	}
}
