package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/isolda/isolda/bench"
	"github.com/isolda/isolda/bench/failures"
	"github.com/isolda/isolda/bench/synthetic"
	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/formats/graphrag"
	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// benchFlags are the flags of isolda bench.
type benchFlags struct {
	in          inputFlags
	tokenizers  []string
	legacyT     []string
	modelsDir   string
	only, skip  []string
	jsonFile    string
	csvFile     string
	outDir      string
	synthetic   string
	services    int
	nodes       int
	noiseEdges  int
	seed        int64
	budgets     []int
	orderings   []string
	shuffleSeed uint64
	queries     int
	articleOnly bool
	check       bool
	failures    bool
	explain     bool
}

func newBenchCmd(env *Env) *cobra.Command {
	var fl benchFlags
	cmd := &cobra.Command{
		Use:   "bench [FILE...]",
		Short: "Benchmark every format offline: bytes, tokens, round-trip fidelity, traversal, budgets",
		Long: "Encodes each graph in every registered format and measures UTF-8 bytes, characters and tokens " +
			"(one column per --tokenizer), the ratio of tokens to Turtle, round-trip fidelity of the lossless " +
			"formats (decode and compare: RDF isomorphism, or equal node and edge sets for labelled-graph " +
			"formats) and the accuracy of generated multi-hop and reverse-edge traversal queries on the decoded " +
			"graph. Lossy formats are listed apart, marked LOSSY. Without FILE it runs on the embedded " +
			"examples.\n\n" +
			"--synthetic services runs the GraphRAG article's benchmark on its synthetic service graph " +
			"(--services, --noise-edges, --seed; byte-identical to its reference program) with the budget " +
			"study: budgets (--budgets) under raw and record-aware truncation for each record ordering " +
			"(--orderings). --synthetic er (ba, sbm, sfn, complete, star, path) benchmarks a random graph of " +
			"GraphQA's generators (--nodes, --seed) with the labelled-graph formats. --json keeps the reference program's report structure.\n\n" +
			"On RDF graphs the budget study runs when --budgets, --orderings or --shuffle-seed is given: every " +
			"lossless format, in every ordering, cut to every budget by raw and record-aware truncation, with the " +
			"kept text's parse outcome, retained nodes and edges, surviving gold paths of the generated queries " +
			"and traversal accuracy. Orderings: canonical, shuffle (--shuffle-seed), relevant_first (gold-path " +
			"statements or records first), bfs_from_query (breadth-first from the queries' start nodes) and " +
			"interleaved (each node record followed by its edges; only csv, jsonl, typed_edges and " +
			"typed_edges_dict, n/a elsewhere). RDF formats order statements; formats whose encoder sorts them " +
			"(ISOLDA, Turtle and every RDF syntax but N-Triples and N-Quads) are marked order-invariant.\n\n" +
			"--failure-cases runs the article's failure cases as named fixtures and shows which formats " +
			"survive them.\n\n" +
			"--out DIR writes report.json, results.csv, tokens.svg, pareto.svg and index.html. A progress bar " +
			"is drawn on a terminal only. With --check the exit status is 1 when a lossless format fails its " +
			"round trip or traversal queries.",
		Example: "  isolda bench\n" +
			"  isolda bench examples/demo.ttl --formats isolda,turtle,jsonld-compact,typed_edges\n" +
			"  cat examples/demo.ttl | isolda bench --tokenizer o200k_base --tokenizer cl100k_base --out bench-out\n" +
			"  isolda bench examples/demo.ttl --formats isolda,ntriples --orderings canonical --budgets 256,512\n" +
			"  isolda bench --synthetic services --budgets ''",
		RunE: func(cmd *cobra.Command, args []string) error {
			fs := cmd.Flags()
			noteLegacyTokenizer(env, cmd)
			if fs.Changed(legacyTokenizerFlag) {
				if fs.Changed("tokenizer") {
					fl.tokenizers = append(fl.tokenizers, fl.legacyT...)
				} else {
					fl.tokenizers = fl.legacyT
				}
			}
			return runBench(env, &fl, args, fs.Changed("budgets") || fs.Changed("orderings") || fs.Changed("shuffle-seed"))
		},
	}
	f := cmd.Flags()
	fl.in.register(cmd)
	f.StringArrayVar(&fl.tokenizers, "tokenizer", []string{token.O200KBase}, "tokenizer to count with (repeatable; the first ranks): o200k_base, cl100k_base, qwen3, llama3, gemma3, a tokenizer.json path or a Hugging Face model id")
	f.StringArrayVarP(&fl.legacyT, legacyTokenizerFlag, "t", nil, "deprecated: --tokenizer")
	hideLegacy(cmd)
	modelsDirFlag(f, &fl.modelsDir)
	f.StringSliceVar(&fl.only, "formats", nil, "only these formats (comma-separated registry names)")
	f.StringSliceVar(&fl.skip, "skip", nil, "leave out these formats (comma-separated registry names)")
	f.StringVar(&fl.jsonFile, "json", "", "write the full results (parameters, versions, hashes) as JSON to FILE")
	f.StringVar(&fl.csvFile, "csv", "", "write one CSV row per graph and format to FILE")
	f.StringVarP(&fl.outDir, "out", "o", "", "write report.json, results.csv, SVG charts and index.html to DIR")
	f.StringVar(&fl.synthetic, "synthetic", "", "benchmark a synthetic graph instead of RDF files: services (the GraphRAG article's graph), or a GraphQA random graph: "+strings.Join(bench.Generators(), ", "))
	f.IntVar(&fl.nodes, "nodes", 20, "GraphQA random graph: number of nodes (at most 500)")
	f.IntVar(&fl.services, "services", 40, "synthetic services: number of services")
	f.IntVar(&fl.noiseEdges, "noise-edges", 80, "synthetic services: number of random depends_on edges")
	f.Int64Var(&fl.seed, "seed", 7, "synthetic graph: seed of Python's random.Random (and numpy's RandomState for GraphQA graphs)")
	fl.budgets = bench.DefaultBudgets()
	f.Var(&intList{v: &fl.budgets}, "budgets", "token budgets of the budget study, comma-separated: always run on the synthetic graph (empty, --budgets '', to skip), on RDF graphs only when --budgets, --orderings or --shuffle-seed is given")
	f.StringSliceVar(&fl.orderings, "orderings", bench.Orderings(), "record orderings of the budget study: "+strings.Join(bench.Orderings(), ", "))
	f.Uint64Var(&fl.shuffleSeed, "shuffle-seed", 1, "seed of the shuffled ordering")
	f.IntVar(&fl.queries, "queries", bench.DefaultQueries, "traversal queries of each kind generated per RDF graph")
	f.BoolVar(&fl.articleOnly, "article-only", false, "synthetic services: only the article's formats (no other registry formats)")
	f.BoolVar(&fl.failures, "failure-cases", false, "run the article's failure cases (duplicate identifiers, delimiter collisions, direction reversal, relationship-type collapse, orphan edges, broken monolithic JSON, tokenizer mismatch, identifier leakage) and show which formats survive")
	f.BoolVar(&fl.explain, "explain", false, "print the per-construct token breakdown (glossary, directives, headers, ids, values, separators...) of each ISOLDA document instead of the table")
	f.BoolVar(&fl.check, "check", false, "exit with status 1 when a lossless format fails its round trip or a traversal query")
	return cmd
}

func runBench(env *Env, fl *benchFlags, args []string, budgetsGiven bool) error {
	reg := token.NewRegistry(token.Options{ModelsDir: fl.modelsDir})
	var toks []token.Tokenizer
	for _, name := range fl.tokenizers {
		t, err := reg.Get(name)
		if f, isFormat := formats.Lookup(name); err != nil && isFormat {
			return usageError("bench: %q is a format, not a tokenizer: --formats %s benches only it, --tokenizer names a tokenizer (o200k_base, cl100k_base, ...)",
				name, f.Name)
		}
		if err != nil {
			return unknownTokenizer(reg, name, err)
		}
		toks = append(toks, t)
	}
	if len(toks) == 0 {
		return badInput(fmt.Errorf("bench: give at least one --tokenizer"))
	}
	fl.only, fl.skip = canonicalNames(fl.only), canonicalNames(fl.skip)
	for _, n := range slices.Concat(fl.only, fl.skip) {
		if _, ok := formats.Get(n); !ok {
			return usageError("bench: unknown format %q%s (isolda formats lists them)", n, suggest(n, formats.Names()))
		}
	}
	if _, err := bench.SelectFormats(fl.only, fl.skip); err != nil {
		return badInput(err)
	}
	for _, b := range fl.budgets {
		if b <= 0 {
			return badInput(fmt.Errorf("bench: budget %d: budgets must be positive", b))
		}
	}
	if fl.explain {
		return runExplain(env, fl, args, toks)
	}
	if fl.failures {
		if len(args) > 0 || fl.synthetic != "" {
			return badInput(fmt.Errorf("bench: --failure-cases takes no FILE and no --synthetic"))
		}
		return runFailureCases(env, fl, toks)
	}
	progress := newProgress(env.Stderr)
	if fl.synthetic == "" && len(args) == 0 && env.stdinPiped() {
		args = []string{"-"}
	}
	if fl.synthetic != "" && len(args) > 0 {
		return badInput(fmt.Errorf("bench: --synthetic takes no FILE arguments"))
	}
	var inputs []bench.Input
	switch {
	case fl.synthetic == "services":
		return runSynthetic(env, fl, toks)
	case slices.Contains(bench.Generators(), fl.synthetic):
		in, err := bench.GeneratedInput(fl.synthetic, fl.nodes, fl.seed)
		if err != nil {
			return badInput(err)
		}
		inputs = []bench.Input{in}
	case fl.synthetic != "":
		return badInput(fmt.Errorf("bench: unknown --synthetic %q (want services or one of %s)", fl.synthetic,
			strings.Join(bench.Generators(), ", ")))
	default:
		var err error
		if inputs, err = benchInputs(env, fl, args); err != nil {
			return err
		}
	}
	var budgets []int
	if budgetsGiven {
		budgets = fl.budgets
	}
	rep, err := bench.Run(inputs, bench.Options{Tokenizers: toks, Formats: fl.only, Skip: fl.skip,
		Queries: fl.queries, Budgets: budgets, Orderings: fl.orderings, ShuffleSeed: fl.shuffleSeed, Progress: progress})
	if err != nil {
		return badInput(err)
	}
	progress(-1, 0)
	table := func(w io.Writer) error {
		if err := bench.WriteTable(w, rep); err != nil {
			return err
		}
		fmt.Fprintf(w, "# %s x %s, tokenizers: %s; %.0f ms\n", plural(len(rep.Graphs), "graph"), plural(len(rep.Formats), "format"),
			strings.Join(rep.Tokenizers, ", "), rep.Millis)
		return nil
	}
	if err := writeOutputs(env, fl, rep, table, func(w io.Writer) error { return bench.WriteCSV(w, rep) },
		func(dir string) error { return bench.WriteDir(dir, rep) }); err != nil {
		return err
	}
	if fl.check {
		for _, r := range rep.Results {
			if r.Lossless && r.Error == "" && (!r.RoundTripEqual || r.Traversal != nil && *r.Traversal != 1) {
				fmt.Fprintf(env.Stderr, "isolda: %s on %s: fidelity %s %s\n", r.Format, r.Graph, r.Fidelity, r.FidelityDetail)
				return checkFailed()
			}
		}
	}
	return nil
}

// benchInputs reads the named RDF files, or the embedded examples.
func benchInputs(env *Env, fl *benchFlags, args []string) ([]bench.Input, error) {
	var inputs []bench.Input
	if len(args) == 0 {
		opts, err := fl.in.options(env)
		if err != nil {
			return nil, err
		}
		for _, name := range examples.Names() {
			data, err := examples.Read(name)
			if err != nil {
				return nil, err
			}
			o := opts
			o.File = "examples/" + name
			d, err := rdfio.Read(bytes.NewReader(data), o)
			if err != nil {
				return nil, badInput(err)
			}
			inputs = append(inputs, bench.Input{Name: name, Dataset: d})
		}
		return inputs, nil
	}
	seen := map[string]int{}
	for _, name := range args {
		d, err := fl.in.read(env, name)
		if err != nil {
			return nil, err
		}
		// Results are keyed by graph name: a file named twice gets a suffix.
		label := name
		if name == "-" {
			label = "stdin"
		}
		if seen[name]++; seen[name] > 1 {
			label = fmt.Sprintf("%s (%d)", name, seen[name])
		}
		inputs = append(inputs, bench.Input{Name: label, Dataset: d})
	}
	return inputs, nil
}

// runSynthetic runs the article's benchmark on its synthetic graph.
func runSynthetic(env *Env, fl *benchFlags, toks []token.Tokenizer) error {
	p := graphrag.DefaultParameters()
	p.Services, p.NoiseEdges, p.Seed = fl.services, fl.noiseEdges, fl.seed
	p.Output = fl.jsonFile
	if fl.services < 0 || fl.noiseEdges < 0 {
		return badInput(fmt.Errorf("bench: --services and --noise-edges must not be negative"))
	}

	rep, err := synthetic.Run(synthetic.Options{Parameters: p, Tokenizers: toks, Extra: !fl.articleOnly,
		Formats: fl.only, Skip: fl.skip, Budgets: fl.budgets, Orderings: fl.orderings, ShuffleSeed: fl.shuffleSeed})
	if err != nil {
		return badInput(err)
	}
	if err := writeOutputs(env, fl, rep, func(w io.Writer) error { return synthetic.WriteTable(w, rep) },
		func(w io.Writer) error { return synthetic.WriteCSV(w, rep) },
		func(dir string) error { return synthetic.WriteDir(dir, rep) }); err != nil {
		return err
	}
	if fl.check {
		for _, r := range rep.Formats {
			if r.Result.Lossless && (!r.Result.RoundTripEqual || r.Result.TraversalAccuracy != 1) {
				fmt.Fprintf(env.Stderr, "isolda: %s: round trip or traversal failed\n", r.Name)
				return checkFailed()
			}
		}
	}
	return nil
}

// runFailureCases runs every failure case and prints the outcomes.
func runFailureCases(env *Env, fl *benchFlags, toks []token.Tokenizer) error {
	var results []*failures.Result
	for _, c := range failures.Cases() {
		r, err := failures.Run(c, toks)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	if err := toStdout(env, func(w io.Writer) error { return failures.Write(w, results) }); err != nil {
		return err
	}
	if fl.jsonFile != "" {
		return writeBenchFile(fl.jsonFile, func(w io.Writer) error { return bench.WriteJSON(w, results) })
	}
	return nil
}

// writeOutputs writes a benchmark's table to standard output, then --json,
// --csv and --out.
func writeOutputs(env *Env, fl *benchFlags, rep any, writeTable, writeCSV func(io.Writer) error, writeDir func(string) error) error {
	if err := toStdout(env, writeTable); err != nil {
		return err
	}
	if fl.jsonFile != "" {
		if err := writeBenchFile(fl.jsonFile, func(w io.Writer) error { return bench.WriteJSON(w, rep) }); err != nil {
			return err
		}
	}
	if fl.csvFile != "" {
		if err := writeBenchFile(fl.csvFile, writeCSV); err != nil {
			return err
		}
	}
	if fl.outDir != "" {
		if err := writeDir(fl.outDir); err != nil {
			return badInput(err)
		}
	}
	return nil
}

// writeBenchFile creates path and writes it with write, atomically.
func writeBenchFile(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, 0o644, write); err != nil {
		return badInput(err)
	}
	return nil
}

// newProgress returns a progress callback that draws a bar on stderr when
// it is a terminal and does nothing otherwise; progress(-1, 0) clears it.
func newProgress(stderr io.Writer) func(done, total int) {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func(int, int) {}
	}
	var last time.Time
	drawn := false
	return func(done, total int) {
		if done < 0 {
			if drawn {
				fmt.Fprint(f, "\r\033[K")
			}
			return
		}
		if now := time.Now(); done < total && now.Sub(last) < 50*time.Millisecond {
			return
		} else {
			last = now
		}
		const width = 30
		filled := width * done / max(total, 1)
		fmt.Fprintf(f, "\r[%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(" ", width-filled), done, total)
		drawn = true
	}
}

// intList is an int-list flag value (comma-separated) that, unlike
// pflag's IntSlice, takes the empty string for the empty list.
type intList struct {
	v       *[]int
	changed bool
}

// Set implements pflag.Value: each use appends to the list given on the
// command line (the default is dropped at the first use).
func (l *intList) Set(s string) error {
	if !l.changed {
		*l.v, l.changed = nil, true
	}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			return fmt.Errorf("%q is not an integer", part)
		}
		*l.v = append(*l.v, n)
	}
	return nil
}

// String implements pflag.Value.
func (l *intList) String() string {
	parts := make([]string, len(*l.v))
	for i, n := range *l.v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

// Type implements pflag.Value.
func (l *intList) Type() string { return "ints" }

// plural writes "1 graph", "3 graphs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
