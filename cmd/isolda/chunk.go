package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/bytesize"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newChunkCmd(env *Env) *cobra.Command {
	var in inputFlags
	var opts chunk.Options
	var classes []string
	var memory, modelsDir string
	var tmpDir, tmpLimit string
	cmd := &cobra.Command{
		Use:   "chunk [FILE...]",
		Short: "Write one document per entity of a graph (for retrieval indexes), in bounded memory",
		Long: "Reads a graph (FILEs, standard input for - or when piped, else the embedded demo graph) and writes, " +
			"for every entity (an IRI that is the subject of a statement; --class restricts them), one document " +
			"of its neighbourhood in a format of the registry (-t, ISOLDA by default): its statements, the " +
			"statements linking to it, and the labels and types of its neighbours (--hops k: the neighbours up " +
			"to k-1 links away give all their statements). The document is the most statements, ranked own " +
			"statements first, whose text fits --budget tokens of --tokenizer. Output: one JSON line per entity, " +
			"{entity, format, text, tokens, sha256, statements_kept, statements_total}, sorted by entity IRI.\n\n" +
			"Graphs larger than memory are grouped by an external sort that spills to --tmp-dir, so that " +
			"--memory-limit bounds the process. Several FILEs are read as one graph: N-Triples and N-Quads files " +
			"(shards) share their blank nodes, other syntaxes keep theirs apart. On a terminal, standard error " +
			"shows the progress.",
		Example: "  isolda chunk examples/demo.ttl\n" +
			"  isolda chunk nomisma.nt.gz --budget 256 --glossary none > chunks.jsonl\n" +
			"  isolda chunk -t b-ttl-ids --class schema:Person --hops 2 examples/demo.ttl\n" +
			"  isolda synth --triples 20000000 | isolda chunk -f nt --memory-limit 1GiB --tmp-dir /var/tmp > chunks.jsonl",
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, c := range classes {
				iri, err := chunk.ExpandClass(c)
				if err != nil {
					return usageError("--class: %v", err)
				}
				opts.Classes = append(opts.Classes, iri)
			}
			if opts.Hops < 1 || opts.Hops > chunk.MaxHops {
				return usageError("--hops %d: give 1 to %d", opts.Hops, chunk.MaxHops)
			}
			limit, err := bytesize.Parse(memory)
			if err != nil {
				return usageError("--memory-limit: %v", err)
			}
			reg := token.NewRegistry(token.Options{ModelsDir: modelsDir})
			tok, err := reg.Get(opts.Tokenizer)
			if err != nil {
				return unknownTokenizer(reg, opts.Tokenizer, err)
			}
			if _, ok := formats.Lookup(opts.Format); !ok {
				return unknownOutputFormat("chunk", opts.Format)
			}
			f, _ := formats.Lookup(opts.Format)
			opts.Format = f.Name
			c, err := chunk.New(opts, tok)
			if err != nil {
				return badInput(err)
			}
			names := args
			if len(names) == 0 && env.stdinPiped() {
				names = []string{"-"}
			}
			// The sorts take most of the limit; the rest is for the
			// documents being encoded and the collector's slack. The
			// collector's limit stays above what the runtime and the
			// binary take anyway, or it would collect without end.
			old := debug.SetMemoryLimit(max(limit, 64<<20))
			defer debug.SetMemoryLimit(old)
			run := chunk.RunOptions{Memory: limit * 6 / 10, TmpDir: tmpDir}
			if tmpLimit != "" {
				if run.MaxSpill, err = bytesize.Parse(tmpLimit); err != nil {
					return usageError("--tmp-limit: %v", err)
				}
			}
			prog := newChunkProgress(env, names)
			if prog != nil {
				run.Progress = prog.report
			}
			read := func(sink rdf.Sink) error { return readGraphs(env, &in, names, sink, prog) }
			st, err := c.Run(read, env.Stdout, run)
			if prog != nil {
				prog.finish(st)
			}
			if err != nil {
				var ee *exitError
				if errors.As(err, &ee) {
					return err
				}
				if run.MaxSpill > 0 && errors.Is(err, rdf.ErrLimit) {
					return badInput(fmt.Errorf("%w (--tmp-limit %s)", err, tmpLimit))
				}
				return badInput(err)
			}
			return nil
		},
	}
	in.register(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Format, "to", "t", chunk.DefaultFormat, "format of the documents (see isolda formats)")
	fl.StringVar(&opts.Tokenizer, "tokenizer", chunk.DefaultTokenizer, "tokenizer of --budget and of the counts: o200k_base, cl100k_base, a name in the models directory, a tokenizer.json path or a Hugging Face model id")
	fl.StringVar(&modelsDir, "models-dir", "", "folder of tokenizer.json models (default $ISOLDA_TOKENIZERS)")
	fl.IntVar(&opts.Budget, "budget", 512, "most tokens of a document; 0 keeps every statement")
	fl.IntVar(&opts.Hops, "hops", 1, "radius of the neighbourhood: the neighbours up to k-1 links away give all their statements, those k away their labels and types")
	fl.StringArrayVar(&classes, "class", nil, "write only the instances of this class: an IRI or a prefixed name such as schema:Person (repeatable)")
	fl.StringVar(&opts.Glossary, "glossary", "full", "ISOLDA glossary: full, legend (one line) or none (the same for every document)")
	fl.StringSliceVar(&opts.Languages, "lang", []string{"en", ""}, "label languages a neighbour's description keeps (an empty item: labels without language); other labels only when it has none of these")
	fl.IntVar(&opts.MaxStatements, "max-statements", chunk.DefaultMaxStatements, "bound of each part of a neighbourhood (own statements, links to the entity, statements of neighbours): hubs stay small")
	fl.StringVar(&memory, "memory-limit", "1GiB", "memory of the process (sorts, then spilled to --tmp-dir): a size such as 512MiB or 2GiB")
	fl.StringVar(&tmpDir, "tmp-dir", "", "folder of the sorted runs spilled to disk (default $TMPDIR or /tmp); the files are unlinked at once")
	fl.StringVar(&tmpLimit, "tmp-limit", "", "most bytes the sorts may write to --tmp-dir (a size such as 20GiB; default no bound): a run that needs more stops with an error")
	return cmd
}

// readGraphs streams the named inputs (none: the demo graph) into sink.
// N-Triples and N-Quads inputs share blank node labels; in the others,
// from the second input on, labels get the prefix "fN_" (N the input's
// position), so that each file's blank nodes stay its own.
func readGraphs(env *Env, in *inputFlags, names []string, sink rdf.Sink, prog *chunkProgress) error {
	if len(names) == 0 {
		return in.streamInto(env, "", sink)
	}
	for i, name := range names {
		s := sink
		if i > 0 && !lineSyntax(in.from, name) {
			prefix := fmt.Sprintf("f%d_", i)
			relabel := func(t rdf.Term) rdf.Term { return rdf.NewBlank(prefix + t.Value) }
			s = rdf.SinkFunc(func(q rdf.Quad) error {
				q.S, q.O, q.G = rdf.MapBlanks(q.S, relabel), rdf.MapBlanks(q.O, relabel), rdf.MapBlanks(q.G, relabel)
				return sink.AddQuad(q)
			})
		}
		var wrap func(io.Reader) io.Reader
		if prog != nil {
			wrap = prog.counting
		}
		if err := in.streamIntoWrapped(env, name, s, wrap); err != nil {
			return err
		}
	}
	return nil
}

// lineSyntax reports whether an input is N-Triples or N-Quads, by -f or
// by its name.
func lineSyntax(from, name string) bool {
	f, ok := rdfio.FormatFromName(name)
	if from != "" {
		g, err := rdfio.ParseFormat(from)
		f, ok = g, err == nil
	}
	return ok && (f == rdfio.NTriples || f == rdfio.NQuads)
}

// chunkProgress draws the progress of a chunk run on a terminal, one
// line redrawn in place: statements read with their rate and, when the
// input sizes are known, the time left to read them; then for each phase
// the share of its records done, the entities written, their rate and the
// time left in the phase.
type chunkProgress struct {
	w          io.Writer
	total      int64        // bytes of the input files, 0 if unknown
	read       atomic.Int64 // bytes read, by the reading goroutine
	start      time.Time
	phase      string
	phaseStart time.Duration
	drawn      bool
}

// newChunkProgress returns a progress display on standard error when it
// is a terminal, else nil (logs stay quiet).
func newChunkProgress(env *Env, names []string) *chunkProgress {
	f, ok := env.Stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	p := &chunkProgress{w: env.Stderr, start: time.Now()}
	for _, n := range names {
		st, err := os.Stat(n)
		if n == "-" || err != nil || !st.Mode().IsRegular() {
			p.total = 0
			break
		}
		p.total += st.Size()
	}
	return p
}

// counting wraps the reader of an input so that the bytes read count.
func (p *chunkProgress) counting(r io.Reader) io.Reader {
	return readerFunc(func(b []byte) (int, error) {
		n, err := r.Read(b)
		p.read.Add(int64(n))
		return n, err
	})
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(b []byte) (int, error) { return f(b) }

// eta formats the time left when a share done of the work took elapsed.
func eta(done float64, elapsed time.Duration) string {
	if done <= 0 || done >= 1 {
		return ""
	}
	left := time.Duration(float64(elapsed) * (1 - done) / done)
	return ", ETA " + left.Round(time.Second).String()
}

func (p *chunkProgress) report(pr chunk.Progress) {
	if pr.Phase != p.phase {
		p.phase, p.phaseStart = pr.Phase, pr.Elapsed
	}
	inPhase := pr.Elapsed - p.phaseStart
	rate := func(n int64) float64 {
		if s := inPhase.Seconds(); s > 0 {
			return float64(n) / s
		}
		return 0
	}
	var line string
	if pr.Phase == "read" {
		line = fmt.Sprintf("chunk: read %d statements, %.0f/s", pr.Statements, rate(pr.Statements))
		if p.total > 0 {
			done := float64(p.read.Load()) / float64(p.total)
			line += fmt.Sprintf(", %.0f%%", 100*done) + eta(done, inPhase)
		}
	} else {
		done := float64(pr.Records) / float64(max(pr.RecordsTotal, 1))
		line = fmt.Sprintf("chunk: %d statements; %s: %.0f%% of %d records", pr.Statements, pr.Phase, 100*done, pr.RecordsTotal)
		if pr.Phase == "write" {
			line += fmt.Sprintf(", %d entities written, %.0f/s", pr.Entities, rate(pr.Entities))
		}
		line += eta(done, inPhase)
	}
	fmt.Fprintf(p.w, "\r\x1b[2K%s", line)
	p.drawn = true
}

// finish clears the progress line and prints a summary.
func (p *chunkProgress) finish(st chunk.Stats) {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[2K")
	}
	fmt.Fprintf(p.w, "chunk: %d statements, %d entities, %s", st.Statements, st.Entities, time.Since(p.start).Round(time.Millisecond))
	if !st.InMemory {
		fmt.Fprintf(p.w, ", %d MiB of sorted runs on disk", st.Spilled>>20)
	}
	fmt.Fprintln(p.w)
}
