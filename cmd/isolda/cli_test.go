package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/isolda/isolda/eval"
	"github.com/isolda/isolda/eval/runner"
	"github.com/isolda/isolda/examples"
)

// TestPipedInputIsRead checks that every command that reads a graph reads
// piped standard input, with no FILE or with -, instead of the demo graph:
// the paper's Listing 1 (examples.Listing1), 23 triples (hand-counted: 6
// typed entities with their names, plus the links and values), not the 28
// of the embedded demo graph.
func TestPipedInputIsRead(t *testing.T) {
	for _, args := range [][]string{{"stats"}, {"stats", "-"}, {"stats", "--count"}} {
		code, out, errs := runCLI(t, examples.Listing1(), args...)
		if code != 0 || !strings.HasPrefix(out, "23\n") {
			t.Errorf("%v: exit %d, %q %s", args, code, firstLine(out), errs)
		}
	}
	// Sniffed JSON-LD on standard input.
	if code, out, errs := runCLI(t, `{"@id": "http://e/a", "http://e/p": "x"}`, "stats"); code != 0 || !strings.HasPrefix(out, "1\n") {
		t.Errorf("JSON-LD on stdin: exit %d, %q %s", code, firstLine(out), errs)
	}
	code, out, _ := runCLI(t, examples.Listing1(), "convert", "-t", "ntriples")
	if code != 0 || strings.Count(out, "\n") != 23 || strings.Contains(out, "example.org/ada") {
		t.Errorf("convert: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
	code, out, _ = runCLI(t, examples.Listing1(), "encode")
	if code != 0 || !strings.Contains(out, "Xavier Vinaixa Roselló") {
		t.Errorf("encode: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, examples.Listing1(), "check"); code != 0 || !strings.HasPrefix(out, "ok: 23 quads") {
		t.Errorf("check: exit %d, %q", code, out)
	}
	if code, out, errs := runCLI(t, examples.Listing1(), "questions", "-o", "-", "--families", "lookup"); code != 0 ||
		!strings.Contains(out, "Chief Technology Officer") || !strings.Contains(errs, "lookup:") {
		t.Errorf("questions: exit %d, %s", code, errs)
	}
	if code, out, errs := runCLI(t, examples.Listing1(), "bench", "--formats", "isolda,turtle"); code != 0 || !strings.Contains(out, "# stdin: 23 statements") {
		t.Errorf("bench: exit %d, %s\n%s", code, errs, out)
	}
	// A lab format on standard input, read with -f.
	_, doc, _ := runCLI(t, examples.Listing1(), "encode")
	if code, out, errs := runCLI(t, doc, "stats", "-f", "isolda"); code != 0 || !strings.HasPrefix(out, "23\n") {
		t.Errorf("stats -f isolda: exit %d, %q %s", code, firstLine(out), errs)
	}
	// Without standard input: the demo graph.
	if code, out, _ := runCLI(t, "", "stats"); code != 0 || !strings.HasPrefix(out, "28\n") {
		t.Errorf("stats without input: exit %d, %q", code, firstLine(out))
	}
	// decode and tokens have no demo: no input is an error, not a wait.
	for _, cmd := range []string{"decode", "tokens"} {
		if code, _, errs := runCLI(t, "", cmd); code != exitBadInput || !strings.Contains(errs, "no input") {
			t.Errorf("%s without input: exit %d, %s", cmd, code, errs)
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// TestStdinPiped checks what counts as piped: a pipe or a regular file,
// not a character device such as /dev/null (nor a terminal).
func TestStdinPiped(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	file, err := os.Open(writeFile(t, "x.ttl", examples.Listing1()))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		name string
		env  Env
		want bool
	}{{"pipe", Env{Stdin: r}, true}, {"file", Env{Stdin: file}, true}, {"/dev/null", Env{Stdin: devnull}, false},
		{"nil", Env{}, false}, {"reader", Env{Stdin: strings.NewReader("")}, true}} {
		if got := c.env.stdinPiped(); got != c.want {
			t.Errorf("%s: piped %v, want %v", c.name, got, c.want)
		}
	}
}

// eachCommand calls fn for every command of the tree but cobra's own.
func eachCommand(cmd *cobra.Command, fn func(*cobra.Command)) {
	if cmd.Name() == "help" || cmd.Name() == "completion" {
		return
	}
	fn(cmd)
	for _, c := range cmd.Commands() {
		eachCommand(c, fn)
	}
}

// examplePattern finds the isolda commands of a help text or an example
// experiment: from "isolda" to the end of the line, a pipe, a quote or a
// backtick.
var examplePattern = regexp.MustCompile("isolda( [a-z][^|`>;\n]*)")

// checkCommandLine parses an isolda command line of an example with the
// real command tree: its subcommand and flags must exist.
func checkCommandLine(t *testing.T, where, line string) {
	t.Helper()
	root := newRootCmd(&Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	args := strings.Fields(line)
	for i, a := range args {
		if a == "''" { // the shell's empty argument
			args[i] = ""
		}
	}
	cmd, rest, err := root.Find(args)
	if err != nil {
		t.Errorf("%s: %q: %v", where, line, err)
		return
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: %q: %v", where, line, err)
	}
}

// TestHelpOfEveryCommand checks every command's help: examples that parse,
// no backticks in flag usages (pflag turns a backticked word into the
// flag's placeholder), long texts wrapped.
func TestHelpOfEveryCommand(t *testing.T) {
	root := newRootCmd(&Env{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
	n := 0
	eachCommand(root, func(cmd *cobra.Command) {
		n++
		if !strings.Contains(cmd.Example, "isolda ") {
			t.Errorf("%s: no Examples", cmd.CommandPath())
		}
		for _, line := range strings.Split(cmd.Example, "\n") {
			line = strings.TrimSpace(line)
			for _, m := range examplePattern.FindAllStringSubmatch(line, -1) {
				checkCommandLine(t, cmd.CommandPath()+" example", m[1])
			}
		}
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "`") {
				t.Errorf("%s --%s: backtick in the usage %q", cmd.CommandPath(), f.Name, f.Usage)
			}
		})
		for _, line := range strings.Split(cmd.Long, "\n") {
			if len([]rune(line)) > helpWidth {
				t.Errorf("%s: long help line of %d columns: %q", cmd.CommandPath(), len([]rune(line)), line)
			}
		}
	})
	if n < 19 {
		t.Errorf("%d commands, want at least 19", n)
	}
	// The help shows the Examples section.
	code, out, _ := runCLI(t, "", "convert", "--help")
	if code != 0 || !strings.Contains(out, "Examples:\n  isolda convert examples/demo.ttl -t ntriples") ||
		!strings.Contains(out, "-t, --to string") {
		t.Errorf("convert --help: exit %d\n%s", code, out)
	}
	// The commands the example experiment's comments recommend exist.
	for _, m := range examplePattern.FindAllStringSubmatch(eval.ExampleYAML, -1) {
		checkCommandLine(t, "eval init's example", m[1])
	}
}

func TestUnknownSubcommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "runn"}, `unknown command "runn" for "isolda eval"; did you mean run?`},
		{[]string{"select", "calibrat"}, `unknown command "calibrat" for "isolda select"; did you mean calibrate?`},
		{[]string{"runn"}, `unknown command "runn" for "isolda"`},
	} {
		code, out, errs := runCLI(t, "", c.args...)
		if code != exitBadInput || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %d bytes", c.args, code, errs, len(out))
		}
	}
	// Alone, a command with subcommands prints its help.
	if code, out, _ := runCLI(t, "", "eval"); code != 0 || !strings.Contains(out, "Available Commands:") {
		t.Errorf("eval alone: exit %d", code)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "--version")
	if code != 0 || !regexp.MustCompile(`^isolda \S.*go1\.\d+`).MatchString(out) {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestFlagMeanings checks -t: the output format of convert, decode and
// select compare; in tokens and bench a deprecated spelling of
// --tokenizer that still works, with a note.
func TestFlagMeanings(t *testing.T) {
	_, doc, _ := runCLI(t, demoTurtle, "encode")
	if code, out, _ := runCLI(t, doc, "decode", "-t", "turtle"); code != 0 || !strings.Contains(out, "@prefix") {
		t.Errorf("decode -t turtle: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, doc, "decode", "--to", "b-ttl-ids"); code != 0 || !strings.HasPrefix(out, "@prefix") {
		t.Errorf("decode --to b-ttl-ids: exit %d\n%s", code, out)
	}
	code, out, errs := runCLI(t, "some text", "tokens", "-t", "cl100k_base")
	if code != 0 || out != "2\n" || !strings.Contains(errs, "-t for the tokenizer is deprecated; use --tokenizer") {
		t.Errorf("tokens -t: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = runCLI(t, "", "bench", "-t", "turtle")
	if code != exitBadInput || out != "" || !strings.Contains(errs, `"turtle" is a format, not a tokenizer: --formats turtle benches only it`) {
		t.Errorf("bench -t turtle: exit %d, %q", code, errs)
	}
	code, out, errs = runCLI(t, "", "bench", "-t", "cl100k_base", "--formats", "turtle")
	if code != 0 || !strings.Contains(out, "cl100k_base") || !strings.Contains(errs, "deprecated") {
		t.Errorf("bench -t cl100k_base: exit %d, %q", code, errs)
	}
}

// TestFormatNames checks the spellings convert accepts and the targets it
// lists for an unknown one.
func TestFormatNames(t *testing.T) {
	_, want, _ := runCLI(t, "", "convert", "-t", "pretty_json")
	for _, name := range []string{"pretty-json", "PRETTY_JSON", "Pretty-Json"} {
		if code, out, errs := runCLI(t, "", "convert", "-t", name); code != 0 || out != want {
			t.Errorf("-t %s: exit %d, %s", name, code, errs)
		}
	}
	if code, out, _ := runCLI(t, "", "convert", "-t", "n-triples"); code != 0 || strings.Count(out, "\n") != 28 {
		t.Errorf("-t n-triples: exit %d", code)
	}
	code, _, errs := runCLI(t, "", "convert", "-t", "isolda-0.9")
	if code != exitBadInput || !strings.Contains(errs, `unknown output format "isolda-0.9"; did you mean isolda-0.1 or isolda-0.2 or isolda-0.3?`) ||
		!strings.Contains(errs, "RDF syntaxes:\n    nquads, ntriples, turtle, trig, jsonld, jsonld-compact, rdfxml\n") ||
		!strings.Contains(errs, "typed_edges_dict") || !strings.Contains(errs, "isolda-0.3") || strings.Contains(errs, "html") {
		t.Errorf("-t isolda-0.9: exit %d\n%s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "convert", "-t", "html"); code != exitBadInput || !strings.Contains(errs, "read, not written") {
		t.Errorf("-t html: exit %d, %s", code, errs)
	}
	// bench --formats too, and suggests a name for a typo.
	if code, out, errs := runCLI(t, "", "bench", "--formats", "Typed-Edges,ISOLDA"); code != 0 || !strings.Contains(out, "typed_edges ") {
		t.Errorf("bench --formats Typed-Edges,ISOLDA: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "bench", "--formats", "isolds"); code != exitBadInput || !strings.Contains(errs, "did you mean isolda?") {
		t.Errorf("bench --formats isolds: exit %d, %s", code, errs)
	}
	// -f takes the same spellings.
	_, csv, _ := runCLI(t, "", "convert", "-t", "csv")
	if code, out, errs := runCLI(t, csv, "convert", "-f", "CSV", "-t", "typed-edges"); code != 0 || !strings.HasPrefix(out, "#graph-v1\n") {
		t.Errorf("-f CSV -t typed-edges: exit %d, %s", code, errs)
	}
}

// TestMessages checks the wording of a few errors.
func TestMessages(t *testing.T) {
	// The isolda package's messages start with "isolda: " already.
	code, _, errs := runCLI(t, "", "encode", "--layout", "nope")
	if code != exitBadInput || !strings.HasPrefix(errs, "isolda: unknown layout") || strings.Contains(errs, "isolda: isolda:") {
		t.Errorf("encode --layout nope: exit %d, %q", code, errs)
	}
	// A remote JSON-LD context names the flags that fix it.
	p := writeFile(t, "ctx.jsonld", `{"@context": "https://example.com/ctx.jsonld", "@id": "http://e/a", "name": "A"}`)
	code, _, errs = runCLI(t, "", "stats", p)
	if code != exitBadInput || !strings.Contains(errs, "--context URL=FILE") || !strings.Contains(errs, "--allow-remote") {
		t.Errorf("remote context: exit %d, %q", code, errs)
	}
	// --context fixes it.
	ctx := writeFile(t, "ctx-local.jsonld", `{"@context": {"name": "http://schema.org/name"}}`)
	if code, out, errs := runCLI(t, "", "stats", p, "--context", "https://example.com/ctx.jsonld="+ctx); code != 0 || !strings.HasPrefix(out, "1\n") {
		t.Errorf("--context: exit %d, %s", code, errs)
	}
	// tokens --all says which tokenizers it left out, and why.
	t.Setenv("ISOLDA_TOKENIZERS", "")
	code, out, errs := runCLI(t, "text", "tokens", "--all")
	if code != 0 || !strings.Contains(out, "o200k_base") || !strings.Contains(errs, "left out qwen3, llama3, gemma3: no models folder") {
		t.Errorf("tokens --all: exit %d, %q", code, errs)
	}
	code, _, errs = runCLI(t, "text", "tokens", "--all", "--models-dir", t.TempDir())
	if code != 0 || !strings.Contains(errs, "no NAME/tokenizer.json for them in the models folder") {
		t.Errorf("tokens --all --models-dir EMPTY: exit %d, %q", code, errs)
	}
	// formats --long: wrapped, papers named without internal labels.
	code, out, _ = runCLI(t, "", "formats", "--long")
	if code != 0 || strings.Contains(out, "spec 0") || !strings.Contains(out, "Graph Serializations for Reasoning LLMs, appendix H.2") {
		t.Errorf("formats --long: exit %d", code)
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > helpWidth+2 {
			t.Errorf("formats --long: line of %d columns: %q", len([]rune(line)), line)
		}
	}
}

func TestBudgetsEmptyMeansSkip(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "--synthetic", "services", "--budgets", "", "--article-only")
	if code != 0 || strings.Contains(out, "budget study") || !strings.Contains(out, "pretty_json") {
		t.Errorf("--budgets '': exit %d, %s\n%s", code, errs, out)
	}
	if code, _, errs := runCLI(t, "", "bench", "--budgets", "12,x"); code != exitBadInput || !strings.Contains(errs, `"x" is not an integer`) {
		t.Errorf("--budgets 12,x: exit %d, %s", code, errs)
	}
}

// TestEvalFiles checks the experiment-file fixes: absolute paths, missing
// files.
func TestEvalFiles(t *testing.T) {
	dir := t.TempDir()
	graph := writeFile(t, "g.ttl", demoTurtle) // an absolute path in another folder
	y := "graphs: [{file: " + graph + "}]\narms: [{format: isolda}]\n" +
		"models: [{base_url: 'http://127.0.0.1:1/v1', model: x}]\ntasks: [{generate: {families: [count]}}]\n"
	exp := writeIn(t, dir, "exp.yaml", y)
	if code, out, errs := runEval(t, "validate", "--prepare", exp); code != 0 || !strings.Contains(out, "ok: 1 contexts") {
		t.Errorf("absolute graph path: exit %d, %s", code, errs)
	}
	missing := strings.Replace(y, graph, filepath.Join(dir, "nosuch.ttl"), 1)
	if err := os.WriteFile(exp, []byte(missing), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runEval(t, "validate", exp)
	if code != exitBadInput || !strings.Contains(errs, exp+":1:17: graph nosuch: ") || !strings.Contains(errs, "no such file") {
		t.Errorf("missing graph: exit %d, %q", code, errs)
	}
}

// TestEvalRunEndpointDown checks that a model whose endpoint does not
// answer is stopped after a few calls, with a message, and that its arms
// show "no answers".
func TestEvalRunEndpointDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	dir := t.TempDir()
	writeIn(t, dir, "g.ttl", demoTurtle)
	y := "graphs: [{file: g.ttl}]\narms: [{name: a, format: isolda}, {name: b, format: turtle}]\n" +
		"models: [{name: m, base_url: 'http://" + addr + "/v1', model: x, max_concurrency: 1}]\n" +
		"tasks: [{generate: {families: [count, lookup], per_family: 5}}]\ntrials: 3\nretries: -1\n"
	exp := writeIn(t, dir, "exp.yaml", y)
	runDir := filepath.Join(dir, "run")
	code, out, errs := runEval(t, "run", exp, "--out", runDir)
	if code != exitCheckFail || !strings.Contains(errs, "model m: stopped after 5 calls in a row got no response") ||
		!strings.Contains(out, "0 calls answered now, 5 failed") || !strings.Contains(out, "no answers") || strings.Contains(out, "0.000  ") {
		t.Fatalf("endpoint down: exit %d\n%s\n%s", code, out, errs)
	}
	data, err := os.ReadFile(filepath.Join(runDir, runner.AnswersFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 5 {
		t.Errorf("%d calls logged, want 5", n)
	}
}
