package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/isolda/isolda/chunk"
)

func init() {
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(fileRange), error](&splitFn{})
	register.DoFn3x1[context.Context, fileRange, func(string, []byte), error](&readFn{})
	register.Emitter1[fileRange]()
	register.DoFn5x1[string, func(*[]byte) bool, func(string, []byte), func(string, []byte), func(string, []byte), error](&roundFn{})
	register.DoFn4x1[string, func(*[]byte) bool, func(*[]byte) bool, func(string, []byte), error](&hubFn{})
	register.DoFn4x1[string, func(*[]byte) bool, func(*[]byte) bool, func(string, []byte), error](&roundCoFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, int, error](&writeFn{})
	register.Emitter1[int]()
	register.Emitter2[string, []byte]()
	register.Emitter2[int, string]()
	register.Iter1[[]byte]()
	register.Iter1[string]()
	register.Function1x1[fileio.FileMetadata, int64](fileSize)
	register.DoFn2x0[int64, func(int)](&shardCount{})
	register.Function2x0[int, func(int, string)](emptyShards)
	register.DoFn5x1[string, func(*[]byte) bool, func(*[]byte) bool, int, func(int, string), error](&gatherFn{})
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
	// Shards is the number of output files; 0 derives it from the size of
	// the input (see ShardBytes).
	Shards int
	// SplitBytes is the size of the byte ranges that uncompressed
	// N-Triples and N-Quads files are read in; 0 means
	// DefaultSplitBytes.
	SplitBytes int64
	// ShardBytes is the input size that makes one output shard when
	// Shards is 0 (gzipped files count their compressed size); 0 means
	// DefaultShardBytes.
	ShardBytes int64
	// Opts configure the chunker, as for isolda chunk.
	Opts chunk.Options
}

// DefaultShardBytes is the input size per output shard when the number of
// shards is derived from the input: a document of isolda chunk is about
// as large as the statements it is made of, so a shard holds about this
// much text.
const DefaultShardBytes = 128 << 20

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
	if cfg.Shards < 0 || cfg.ShardBytes < 0 {
		return nil, fmt.Errorf("isolda-beam: --shards %d or --shard-bytes %d is negative", cfg.Shards, cfg.ShardBytes)
	}
	for _, path := range append(slices.Clone(cfg.Inputs), cfg.Output) {
		if err := checkScheme(path); err != nil {
			return nil, err
		}
	}
	p, s := beam.NewPipelineWithRoot()
	var matches []beam.PCollection
	for _, glob := range cfg.Inputs {
		// A glob that matches nothing fails the run rather than writing
		// empty shards.
		matches = append(matches, fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow()))
	}
	matched := beam.Flatten(s, matches...)
	// Matching runs on one worker: spread the files, then their ranges,
	// over the workers before reading.
	rs := s.Scope("read")
	split := cfg.SplitBytes
	if split <= 0 {
		split = DefaultSplitBytes
	}
	parts := beam.ParDo(rs, &splitFn{Bytes: split}, beam.Reshuffle(rs, matched))
	stmts := beam.ParDo(rs, &readFn{Opts: cfg.Opts}, beam.Reshuffle(rs, parts))
	var msgs []beam.PCollection
	for j := 1; j <= c.Hops(); j++ {
		hs := s.Scope(fmt.Sprintf("hop%d", j))
		var out beam.PCollection
		if j == 1 {
			// Hubs send their description beyond their bounds in a
			// second step: their kept records joined with those they
			// dropped.
			sent, kept, dropped := beam.ParDo3(hs, &roundFn{Opts: cfg.Opts}, beam.GroupByKey(hs, stmts))
			out = beam.Flatten(hs, sent, beam.ParDo(hs, &hubFn{Opts: cfg.Opts}, beam.CoGroupByKey(hs, kept, dropped)))
		} else {
			out = beam.ParDo(hs, &roundCoFn{Opts: cfg.Opts, Hop: j}, beam.CoGroupByKey(hs, stmts, msgs[j-2]))
		}
		msgs = append(msgs, out)
	}
	ws := s.Scope("write")
	// The number of shards: fixed, or one per ShardBytes of input.
	n := beam.ParDo(ws, &shardCount{Fixed: cfg.Shards, Bytes: cfg.ShardBytes}, stats.Sum(ws, beam.ParDo(ws, fileSize, matched)))
	docs := beam.ParDo(ws, &gatherFn{Opts: cfg.Opts}, beam.CoGroupByKey(ws, stmts, beam.Flatten(ws, msgs...)), beam.SideInput{Input: n})
	// An empty line for every shard, so that shards without documents are
	// written too (empty).
	empty := beam.ParDo(ws, emptyShards, n)
	beam.ParDo0(ws, &writeFn{Output: cfg.Output}, beam.GroupByKey(ws, beam.Flatten(ws, docs, empty)), beam.SideInput{Input: n})
	return p, nil
}

// fileSize returns the size of a matched file.
func fileSize(md fileio.FileMetadata) int64 { return md.Size }

// shardCount emits the number of output shards given the input's size.
type shardCount struct {
	Fixed int   `json:"fixed"`
	Bytes int64 `json:"bytes"`
}

func (f *shardCount) ProcessElement(size int64, emit func(int)) {
	emit(numShards(f.Fixed, f.Bytes, size))
}

// numShards returns fixed when positive, else one shard per perShard
// bytes of input (DefaultShardBytes when perShard is 0), at least one.
func numShards(fixed int, perShard, size int64) int {
	if fixed > 0 {
		return fixed
	}
	if perShard <= 0 {
		perShard = DefaultShardBytes
	}
	return int(max(1, (size+perShard-1)/perShard))
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

// sorted returns the values of an iterator sorted bytewise without
// repeats: the order in which the external sort gives them to the steps.
func sorted(it func(*[]byte) bool) [][]byte {
	var vals [][]byte
	var v []byte
	for it(&v) {
		vals = append(vals, bytes.Clone(v))
	}
	slices.SortFunc(vals, bytes.Compare)
	return slices.CompactFunc(vals, bytes.Equal)
}

// maxStatements returns the bound of each part of a neighbourhood.
func maxStatements(o chunk.Options) int {
	if o.MaxStatements > 0 {
		return o.MaxStatements
	}
	return chunk.DefaultMaxStatements
}

// selectStmts keeps what the steps read of a node's statement records.
func selectStmts(cap int, it func(*[]byte) bool) *stmtSel {
	sel := newStmtSel(cap)
	var v []byte
	for it(&v) {
		sel.add(v)
	}
	return sel
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

// ProcessElement runs chunk.Round on the kept statement records of a node
// that left none out; a hub's kept records go to kept, the records it
// left out (but for types and labels) to dropped, for hubFn.
func (f *roundFn) ProcessElement(key string, vals func(*[]byte) bool, emit, kept, dropped func(string, []byte)) error {
	sel := newStmtSel(maxStatements(f.Opts))
	sel.drop = func(v []byte) { dropped(key, bytes.Clone(v)) }
	var v []byte
	for vals(&v) {
		sel.add(v)
	}
	vs := sel.sorted()
	if sel.overflowed() {
		for _, v := range vs {
			kept(key, v)
		}
		return nil
	}
	return f.c.Round(1, []byte(key), seqOf(nil, vs), emitter(emit))
}

// hubFn runs the first hop at a hub: chunk.Round on its kept records, in
// order, then on those it left out, streamed. Their order does not matter
// to Round: each only counts, or sends the node's description, complete by
// then, to its neighbour. Types and labels beyond the bounds are not
// given: in the sorted order they come before the description is known,
// and send nothing.
type hubFn struct {
	Opts chunk.Options `json:"opts"`
	c    *chunk.Chunker
}

func (f *hubFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *hubFn) ProcessElement(key string, kept, dropped func(*[]byte) bool, emit func(string, []byte)) error {
	vs := sorted(kept)
	more := func(yield func([]byte) bool) {
		var v []byte
		for dropped(&v) {
			if !yield(v) {
				return
			}
		}
	}
	return f.c.Round(1, []byte(key), seqOf(more, vs), emitter(emit))
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
	ms := newMsgSel(maxStatements(f.Opts))
	var v []byte
	for msgs(&v) {
		ms.add(v)
	}
	return f.c.Round(f.Hop, []byte(key), seqOf(nil, selectStmts(maxStatements(f.Opts), stmts).sorted(), ms.sorted()), emitter(emit))
}

// gatherFn gathers and encodes the document of one entity (its statements
// joined with every hop's messages) and emits its JSON line, keyed by
// output shard (of shards, the side input).
type gatherFn struct {
	Opts chunk.Options `json:"opts"`
	c    *chunk.Chunker
}

func (f *gatherFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *gatherFn) ProcessElement(key string, stmts, msgs func(*[]byte) bool, shards int, emit func(int, string)) error {
	nb, err := f.c.Gather([]byte(key), seqOf(nil, selectStmts(maxStatements(f.Opts), stmts).sorted(), sorted(msgs)))
	if err != nil || nb == nil {
		return err
	}
	ch, err := f.c.Encode(nb)
	if err != nil {
		return err
	}
	h := fnv.New32a()
	io.WriteString(h, ch.Entity)
	emit(int(h.Sum32()%uint32(shards)), string(ch.AppendJSON(nil)))
	return nil
}

// emptyShards keys an empty line by each shard of n.
func emptyShards(n int, emit func(int, string)) {
	for i := range n {
		emit(i, "")
	}
}

// writeFn writes one output shard (of shards, the side input), its lines
// sorted (by entity: every line starts with it), through a temporary file
// renamed to the shard's name once complete.
type writeFn struct {
	Output string `json:"output"`
}

// shardName names output shard i of n.
func shardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

func (f *writeFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool, shards int) error {
	var all []string
	var l string
	for lines(&l) {
		all = append(all, l)
	}
	slices.Sort(all)
	return writeAtomic(ctx, shardName(f.Output, shard, shards), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		for _, l := range all {
			if _, err := bw.WriteString(l); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}

// writeAtomic writes the file name with write: into a temporary file
// beside it (name.tmp-RANDOM), renamed to name once written and closed,
// so that name is either absent, as before, or complete, whatever fails
// or is retried (a rename replaces the file a retried bundle wrote). On
// an error the temporary file is removed.
func writeAtomic(ctx context.Context, name string, write func(io.Writer) error) (err error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	var r [8]byte
	rand.Read(r[:])
	tmp := name + ".tmp-" + hex.EncodeToString(r[:])
	w, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			return
		}
		if rm, ok := fs.(filesystem.Remover); ok {
			rm.Remove(ctx, tmp)
		}
	}()
	if err := write(w); err != nil {
		w.Close()
		return fmt.Errorf("isolda-beam: %s: %w", name, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("isolda-beam: %s: %w", name, err)
	}
	return filesystem.Rename(ctx, fs, tmp, name)
}
