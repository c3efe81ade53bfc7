package main

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(string, []byte), error](&mapFn{})
	register.DoFn3x1[string, func(*[]byte) bool, func(string, []byte), error](&roundFn{})
	register.DoFn4x1[string, func(*[]byte) bool, func(*[]byte) bool, func(string, []byte), error](&roundCoFn{})
	register.DoFn4x1[string, func(*[]byte) bool, func(*[]byte) bool, func(int, string), error](&gatherFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeFn{})
	register.Emitter2[string, []byte]()
	register.Emitter2[int, string]()
	register.Iter1[[]byte]()
	register.Iter1[string]()
	register.Function1x2[int, int, string](emptyShard)
}

// config is what the pipeline does.
type config struct {
	// Inputs are file globs (local paths, gs://...) of N-Triples or
	// N-Quads shards (gzipped or not), read as one graph: blank node
	// labels are shared by the shards.
	Inputs []string
	// Output is the prefix of the output shards, written as
	// PREFIX-00000-of-00004.jsonl.
	Output string
	// Shards is the number of output files.
	Shards int
	// Opts configure the chunker, as for isolda chunk.
	Opts chunk.Options
}

// build makes the pipeline: the same steps as chunk.Chunker.Run, with
// Beam's group-by in place of the external sort. The statements are keyed
// by node; each hop joins them with the previous hop's messages
// (CoGroupByKey); the last join, with every hop's messages, gathers and
// encodes the documents; documents are grouped into shards by a hash of
// the entity and each shard is written sorted by entity.
func build(cfg config) (*beam.Pipeline, error) {
	c, err := chunk.New(cfg.Opts, nil) // check the options before anything runs
	if err != nil {
		return nil, err
	}
	if len(cfg.Inputs) == 0 || cfg.Output == "" {
		return nil, fmt.Errorf("isolda-beam: give --input and --output")
	}
	if cfg.Shards < 1 {
		return nil, fmt.Errorf("isolda-beam: --shards %d is not positive", cfg.Shards)
	}
	for _, path := range append(slices.Clone(cfg.Inputs), cfg.Output) {
		if err := checkScheme(path); err != nil {
			return nil, err
		}
	}
	p, s := beam.NewPipelineWithRoot()
	var files []beam.PCollection
	for _, glob := range cfg.Inputs {
		// A glob that matches nothing fails the run rather than writing
		// empty shards.
		files = append(files, fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow()), fileio.ReadUncompressed()))
	}
	stmts := beam.ParDo(s.Scope("map"), &mapFn{Opts: cfg.Opts}, beam.Flatten(s, files...))
	var msgs []beam.PCollection
	for j := 1; j <= c.Hops(); j++ {
		hs := s.Scope(fmt.Sprintf("hop%d", j))
		var out beam.PCollection
		if j == 1 {
			out = beam.ParDo(hs, &roundFn{Opts: cfg.Opts}, beam.GroupByKey(hs, stmts))
		} else {
			out = beam.ParDo(hs, &roundCoFn{Opts: cfg.Opts, Hop: j}, beam.CoGroupByKey(hs, stmts, msgs[j-2]))
		}
		msgs = append(msgs, out)
	}
	ws := s.Scope("write")
	docs := beam.ParDo(ws, &gatherFn{Opts: cfg.Opts, Shards: cfg.Shards}, beam.CoGroupByKey(ws, stmts, beam.Flatten(ws, msgs...)))
	// An empty line for every shard, so that shards without documents are
	// written too (empty).
	ids := make([]int, cfg.Shards)
	for i := range ids {
		ids[i] = i
	}
	empty := beam.ParDo(ws, emptyShard, beam.CreateList(ws, ids))
	beam.ParDo0(ws, &writeFn{Output: cfg.Output, Shards: cfg.Shards}, beam.GroupByKey(ws, beam.Flatten(ws, docs, empty)))
	return p, nil
}

// checkScheme returns an error, naming the supported schemes, if path
// has a scheme no file system is linked in for: Beam itself would panic
// at start. Linked in are local paths (no scheme) and gs://. Beam's Go
// SDK v2.77.0 has an s3:// file system, but linking it needs the AWS SDK,
// which isolda does not depend on; it has none for hdfs://.
func checkScheme(path string) error {
	scheme, _, ok := strings.Cut(path, "://")
	if !ok || scheme == "" || scheme == "gs" {
		return nil
	}
	return fmt.Errorf("isolda-beam: %s: no file system for %s:// is linked in; supported: local paths and gs://", path, scheme)
}

// mapFn reads one input file and emits the records of its statements.
type mapFn struct {
	Opts chunk.Options `json:"opts"`
	c    *chunk.Chunker
}

func (f *mapFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *mapFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(string, []byte)) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	format, ok := rdfio.FormatFromName(file.Metadata.Path)
	if !ok || format != rdfio.NTriples {
		format = rdfio.NQuads // N-Quads reads N-Triples too
	}
	m := f.c.NewMapper()
	sink := rdf.SinkFunc(func(q rdf.Quad) error {
		return m.Map(q, func(k, v []byte) error {
			emit(string(k), bytes.Clone(v))
			return nil
		})
	})
	opts := rdfio.Options{Format: format, ReadOptions: rdf.ReadOptions{File: file.Metadata.Path, Limits: rdf.Limits{MaxBytes: -1, MaxQuads: -1}}}
	return rdfio.ReadInto(rc, sink, opts)
}

// sorted returns the values of some iterators sorted bytewise without
// repeats: the order in which the external sort gives them to the steps.
func sorted(iters ...func(*[]byte) bool) chunk.Values {
	var vals [][]byte
	for _, it := range iters {
		var v []byte
		for it(&v) {
			vals = append(vals, bytes.Clone(v))
		}
	}
	slices.SortFunc(vals, bytes.Compare)
	vals = slices.CompactFunc(vals, bytes.Equal)
	return iter.Seq[[]byte](slices.Values(vals))
}

// roundFn runs the first hop at one node.
type roundFn struct {
	Opts chunk.Options `json:"opts"`
	c    *chunk.Chunker
}

func (f *roundFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *roundFn) ProcessElement(key string, vals func(*[]byte) bool, emit func(string, []byte)) error {
	return f.c.Round(1, []byte(key), sorted(vals), emitter(emit))
}

// emitter adapts a Beam emitter to chunk.Emit.
func emitter(emit func(string, []byte)) chunk.Emit {
	return func(k, v []byte) error {
		emit(string(k), bytes.Clone(v))
		return nil
	}
}

// roundCoFn runs a later hop at one node: its statements joined with the
// messages of the hop before.
type roundCoFn struct {
	Opts chunk.Options `json:"opts"`
	Hop  int           `json:"hop"`
	c    *chunk.Chunker
}

func (f *roundCoFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *roundCoFn) ProcessElement(key string, stmts, msgs func(*[]byte) bool, emit func(string, []byte)) error {
	return f.c.Round(f.Hop, []byte(key), sorted(stmts, msgs), emitter(emit))
}

// gatherFn gathers and encodes the document of one entity (its statements
// joined with every hop's messages) and emits its JSON line, keyed by
// output shard.
type gatherFn struct {
	Opts   chunk.Options `json:"opts"`
	Shards int           `json:"shards"`
	c      *chunk.Chunker
}

func (f *gatherFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *gatherFn) ProcessElement(key string, stmts, msgs func(*[]byte) bool, emit func(int, string)) error {
	nb, err := f.c.Gather([]byte(key), sorted(stmts, msgs))
	if err != nil || nb == nil {
		return err
	}
	ch, err := f.c.Encode(nb)
	if err != nil {
		return err
	}
	h := fnv.New32a()
	io.WriteString(h, ch.Entity)
	emit(int(h.Sum32()%uint32(f.Shards)), string(ch.AppendJSON(nil)))
	return nil
}

// emptyShard keys an empty line by shard i.
func emptyShard(i int) (int, string) { return i, "" }

// writeFn writes one output shard, its lines sorted (by entity: every line
// starts with it).
type writeFn struct {
	Output string `json:"output"`
	Shards int    `json:"shards"`
}

// shardName names output shard i of n.
func shardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

func (f *writeFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool) error {
	var all []string
	var l string
	for lines(&l) {
		all = append(all, l)
	}
	slices.Sort(all)
	name := shardName(f.Output, shard, f.Shards)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, strings.Join(all, "")); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
