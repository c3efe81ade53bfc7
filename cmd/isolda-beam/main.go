// Command isolda-beam runs isolda chunk as an Apache Beam pipeline (Go SDK),
// for graphs too large for one machine: sharded N-Triples or N-Quads in
// (local files, gs:// or s3://; Beam's Go SDK has no hdfs://), one document
// per entity out, as sharded JSON lines. It runs the same steps as isolda
// chunk (package chunk) with Beam's group-by in place of the external
// sort, so its lines equal isolda chunk's once the shards are concatenated
// and sorted.
//
// It is a command of its own so that the isolda binary does not link Beam.
//
// Usage:
//
//	isolda-beam --input 'shards/*.nt.gz' --output out/chunks [chunk flags] [Beam flags]
//
// The chunk flags are those of isolda chunk: --to, --tokenizer, --budget,
// --hops, --class (repeatable), --glossary, --lang, --max-statements. The
// Beam flags choose the runner: --runner prism (the default: in process),
// or a portable runner (flink, spark, universal) with --endpoint and
// --environment_type, or dataflow with --project, --region and
// --staging_location. README.md gives full command lines.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/isolda/isolda/chunk"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var cfg config
	var inputs, classes listFlag
	var langs, memprof, cpuprof string
	flag.Var(&inputs, "input", "glob of input shards: N-Triples or N-Quads, optionally gzipped (repeatable)")
	flag.StringVar(&cfg.Output, "output", "", "prefix of the output shards: PREFIX-00000-of-00004.jsonl, ...")
	flag.Int64Var(&cfg.SplitBytes, "split-bytes", DefaultSplitBytes, "size of the byte ranges uncompressed N-Triples and N-Quads files are read in, in parallel")
	flag.IntVar(&cfg.Shards, "shards", 0, "number of output shards, and of the buckets each worker sorts; 0: one per --shard-bytes of input")
	flag.Int64Var(&cfg.ShardBytes, "shard-bytes", DefaultShardBytes, "input bytes per output shard when --shards is 0 (gzipped inputs count compressed bytes)")
	flag.Int64Var(&cfg.SortMemory, "sort-memory", DefaultSortMemory, "memory, in bytes, of a worker's sort of one bucket before it spills to local disk")
	flag.StringVar(&cfg.Opts.Format, "to", chunk.DefaultFormat, "format of the documents (see isolda formats)")
	flag.StringVar(&cfg.Opts.Tokenizer, "tokenizer", chunk.DefaultTokenizer, "tokenizer of --budget and of the counts")
	flag.IntVar(&cfg.Opts.Budget, "budget", 512, "most tokens of a document; 0 keeps every statement")
	flag.IntVar(&cfg.Opts.Hops, "hops", 1, "radius of the neighbourhood")
	flag.Var(&classes, "class", "write only the instances of this class: an IRI or a prefixed name (repeatable)")
	flag.StringVar(&cfg.Opts.Glossary, "glossary", "full", "ISOLDA glossary: full, legend or none")
	flag.StringVar(&langs, "lang", "en,", "label languages a neighbour's description keeps, comma-separated (an empty item: no language)")
	flag.IntVar(&cfg.Opts.MaxStatements, "max-statements", chunk.DefaultMaxStatements, "bound of each part of a neighbourhood")
	flag.IntVar(&cfg.Workers, "encode-workers", 0, "goroutines that encode the documents of a bucket on its worker; 0: the worker's GOMAXPROCS")
	hubBounds := flag.Bool("hub-bounds", true, "bound what the neighbours of a hub send it, after a pass that finds the hubs; false: every neighbour sends (for comparison)")
	flag.StringVar(&cfg.Trace, "trace-node", "", "count the messages this node IRI receives (printed with the other counters at the end)")
	flag.StringVar(&memprof, "memprofile", "", "write a heap profile of this process (Prism included when in process) to this file at each new high of the heap, and log the highs")
	flag.StringVar(&cpuprof, "cpuprofile", "", "write a CPU profile of this process (Prism and its workers included when in process) to this file")
	flag.Parse()
	beam.Init()

	cfg.Inputs = inputs
	cfg.NoHubBounds = !*hubBounds
	cfg.Opts.Languages = strings.Split(langs, ",")
	for _, c := range classes {
		iri, err := chunk.ExpandClass(c)
		if err != nil {
			fmt.Fprintln(os.Stderr, "isolda-beam: --class:", err)
			os.Exit(2)
		}
		cfg.Opts.Classes = append(cfg.Opts.Classes, iri)
	}
	p, err := build(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	if memprof != "" {
		go memProfile(ctx, memprof, time.Second)
	}
	if cpuprof != "" {
		stopProf, err := cpuProfile(cpuprof)
		if err != nil {
			fmt.Fprintln(os.Stderr, "isolda-beam: --cpuprofile:", err)
			os.Exit(2)
		}
		defer stopProf()
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		log.Fatalf("isolda-beam: %v", err)
	}
	if res != nil {
		printMetrics(os.Stderr, res.Metrics())
	}
}

// printMetrics writes the pipeline's counters and distributions, one a
// line with the step that reports it, sorted.
func printMetrics(w io.Writer, m metrics.Results) {
	q := m.Query(func(r metrics.SingleResult) bool { return r.Namespace() == metricsNS })
	var lines []string
	for _, c := range q.Counters() {
		lines = append(lines, fmt.Sprintf("isolda-beam: %s (%s): %d", c.Name(), c.Transform(), c.Result()))
	}
	for _, d := range q.Distributions() {
		v := d.Result()
		lines = append(lines, fmt.Sprintf("isolda-beam: %s (%s): count %d, sum %d, min %d, max %d", d.Name(), d.Transform(), v.Count, v.Sum, v.Min, v.Max))
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}
