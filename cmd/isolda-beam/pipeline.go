package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/chunk/extsort"
)

func init() {
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(fileRange), error](&splitFn{})
	register.DoFn4x1[context.Context, fileRange, int, func(int, []byte), error](&readFn{})
	register.Emitter1[fileRange]()
	register.DoFn4x1[int, func(*[]byte) bool, int, func(int, []byte), error](&hopFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, int, error](&gatherFn{})
	register.Emitter1[int]()
	register.Emitter2[int, []byte]()
	register.Iter1[[]byte]()
	register.Function1x1[fileio.FileMetadata, int64](fileSize)
	register.DoFn2x0[int64, func(int)](&shardCount{})
	register.Function2x0[int, func(int, []byte)](emptyBuckets)
}

// config is what the pipeline does.
type config struct {
	// Inputs are file globs (local paths, gs://, s3://) of N-Triples or
	// N-Quads shards (gzipped or not), read as one graph: blank node
	// labels are shared by the shards.
	Inputs []string
	// Output is the prefix of the output shards, written as
	// PREFIX-00000-of-00004.jsonl.
	Output string
	// Shards is the number of output files, and of the buckets the
	// records are sorted in; 0 derives it from the size of the input
	// (see ShardBytes).
	Shards int
	// SplitBytes is the size of the byte ranges that uncompressed
	// N-Triples and N-Quads files are read in; 0 means
	// DefaultSplitBytes.
	SplitBytes int64
	// ShardBytes is the input size that makes one output shard when
	// Shards is 0 (gzipped files count their compressed size); 0 means
	// DefaultShardBytes.
	ShardBytes int64
	// SortMemory is the memory a worker's sort of one bucket uses before
	// it spills to local disk; 0 means DefaultSortMemory.
	SortMemory int64
	// Opts configure the chunker, as for isolda chunk.
	Opts chunk.Options
}

// DefaultShardBytes is the input size per output shard when the number of
// shards is derived from the input: a document of isolda chunk is about
// as large as the statements it is made of, so a shard holds about this
// much text.
const DefaultShardBytes = 128 << 20

// DefaultSortMemory is the memory of a worker's sort of a bucket.
const DefaultSortMemory = 256 << 20

// build makes the pipeline: the same steps as chunk.Chunker.Run, each
// run on the records of one bucket (a hash of the node) sorted by a
// worker. The statement records are batched by bucket as they are read;
// each hop groups them with the previous hop's messages by bucket, runs
// chunk.Round on each node and sends the messages its next steps can
// read, batched by the bucket of their target; the last grouping, with
// every hop's messages, gathers and encodes the documents of a bucket
// and writes them, sorted by entity, as output shard number bucket.
func build(cfg config) (*beam.Pipeline, error) {
	c, err := chunk.New(cfg.Opts, nil) // check the options before anything runs
	if err != nil {
		return nil, err
	}
	if len(cfg.Inputs) == 0 || cfg.Output == "" {
		return nil, fmt.Errorf("isolda-beam: give --input and --output")
	}
	if cfg.Shards < 0 || cfg.ShardBytes < 0 || cfg.SortMemory < 0 {
		return nil, fmt.Errorf("isolda-beam: --shards %d, --shard-bytes %d or --sort-memory %d is negative", cfg.Shards, cfg.ShardBytes, cfg.SortMemory)
	}
	for _, path := range append(slices.Clone(cfg.Inputs), cfg.Output) {
		if err := checkScheme(path); err != nil {
			return nil, err
		}
	}
	mem := cfg.SortMemory
	if mem == 0 {
		mem = DefaultSortMemory
	}
	p, s := beam.NewPipelineWithRoot()
	var matches []beam.PCollection
	for _, glob := range cfg.Inputs {
		// A glob that matches nothing fails the run rather than writing
		// empty shards.
		matches = append(matches, fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow()))
	}
	matched := beam.Flatten(s, matches...)
	// The number of buckets and shards: fixed, or one per ShardBytes of
	// input.
	n := beam.ParDo(s, &shardCount{Fixed: cfg.Shards, Bytes: cfg.ShardBytes}, stats.Sum(s, beam.ParDo(s, fileSize, matched)))
	// Matching runs on one worker: spread the files, then their ranges,
	// over the workers before reading.
	rs := s.Scope("read")
	split := cfg.SplitBytes
	if split <= 0 {
		split = DefaultSplitBytes
	}
	parts := beam.ParDo(rs, &splitFn{Bytes: split}, beam.Reshuffle(rs, matched))
	stmts := beam.ParDo(rs, &readFn{Opts: cfg.Opts}, beam.Reshuffle(rs, parts), beam.SideInput{Input: n})
	var msgs []beam.PCollection
	for j := 1; j <= c.Hops(); j++ {
		hs := s.Scope(fmt.Sprintf("hop%d", j))
		in := stmts
		if j > 1 {
			in = beam.Flatten(hs, stmts, msgs[j-2])
		}
		msgs = append(msgs, beam.ParDo(hs, &hopFn{Opts: cfg.Opts, Hop: j, Memory: mem}, beam.GroupByKey(hs, in), beam.SideInput{Input: n}))
	}
	ws := s.Scope("write")
	// An empty batch for every bucket, so that buckets without records
	// are written too (empty).
	empty := beam.ParDo(ws, emptyBuckets, n)
	all := beam.Flatten(ws, append([]beam.PCollection{stmts, empty}, msgs...)...)
	beam.ParDo0(ws, &gatherFn{Opts: cfg.Opts, Output: cfg.Output, Memory: mem}, beam.GroupByKey(ws, all), beam.SideInput{Input: n})
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

// emptyBuckets emits an empty batch for each bucket of n.
func emptyBuckets(n int, emit func(int, []byte)) {
	for i := range n {
		emit(i, nil)
	}
}

// maxStatements returns the bound of each part of a neighbourhood.
func maxStatements(o chunk.Options) int {
	if o.MaxStatements > 0 {
		return o.MaxStatements
	}
	return chunk.DefaultMaxStatements
}

// hopFn runs a hop on the nodes of a bucket: chunk.Round on each node's
// statement records and the messages of the hop before, in order. It
// sorts the messages it sends by target and emits, batched by the bucket
// of their target, those the next steps can read (msgFilter).
type hopFn struct {
	Opts   chunk.Options `json:"opts"`
	Hop    int           `json:"hop"`
	Memory int64         `json:"memory"`
	c      *chunk.Chunker
}

func (f *hopFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

func (f *hopFn) ProcessElement(bucket int, batches func(*[]byte) bool, n int, emit func(int, []byte)) error {
	in, err := sortBatches(batches, f.Memory/2)
	if err != nil {
		return err
	}
	defer in.Close()
	b := newBatcher(n, emit)
	keep := newMsgFilter(maxStatements(f.Opts), f.Hop < f.c.Hops(), true)
	if f.Hop == 1 || f.Hop == f.c.Hops() {
		return f.byRuns(in, keep, b)
	}
	sent := extsort.New(extsort.Config{Memory: f.Memory / 2})
	err = groups(in, func(key []byte, vals chunk.Values) error {
		return f.c.Round(f.Hop, key, vals, sent.Add)
	})
	out, ferr := sent.Finish(true)
	if err == nil {
		err = ferr
	}
	if err != nil {
		if ferr == nil {
			out.Close()
		}
		return err
	}
	defer out.Close()
	err = groups(out, func(key []byte, vals chunk.Values) error {
		keep.reset()
		for v := range vals {
			if keep.keep(v) {
				b.add(key, v)
			}
		}
		return nil
	})
	b.flush()
	return err
}

// byRuns runs hop 1, or the last hop, on the sorted records of a bucket
// without sorting what it sends. Round sends the messages of one origin
// to one neighbour in one run (at most 2 cap statements: a node's
// package, or what it forwards of one origin), and each run is sorted in
// memory and filtered alone: the filter's bounds hold on any part of a
// target's messages (see msgFilter), and a run is one. In hop 1 each
// origin is the sending node, so a run is all its target gets from that
// origin; the bounds that span origins (the first cap+1 origins for the
// next hop, the first cap statements of farther nodes in all) are left
// to the receiver, which reads no more than them. Hops between the first
// and the last sort what they send, so that the first cap+1 origins of
// each target are all that crosses the shuffle. The runs are batched in
// the order Round sends them, so that a node's statements, sent to each
// of its neighbours, are held once in each batch (see batch) rather than
// once per neighbour.
func (f *hopFn) byRuns(in *extsort.Sorted, keep *msgFilter, b *batcher) error {
	var key []byte
	var run [][]byte
	flush := func() {
		slices.SortFunc(run, bytes.Compare)
		run = slices.CompactFunc(run, bytes.Equal)
		keep.reset()
		for _, v := range run {
			if keep.keep(v) {
				b.add(key, v)
			}
		}
		run = run[:0]
	}
	err := groups(in, func(node []byte, vals chunk.Values) error {
		return f.c.Round(f.Hop, node, vals, func(k, v []byte) error {
			if !bytes.Equal(k, key) {
				flush()
				key = append(key[:0], k...)
			}
			run = append(run, slices.Clone(v))
			return nil
		})
	})
	flush()
	b.flush()
	return err
}

// gatherFn gathers and encodes the documents of the entities of a bucket
// (their statement records joined with every hop's messages, sorted) and
// writes them, in order, as output shard number bucket of n.
type gatherFn struct {
	Opts   chunk.Options `json:"opts"`
	Output string        `json:"output"`
	Memory int64         `json:"memory"`
	c      *chunk.Chunker
}

func (f *gatherFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	return err
}

// shardName names output shard i of n.
func shardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

func (f *gatherFn) ProcessElement(ctx context.Context, bucket int, batches func(*[]byte) bool, n int) error {
	in, err := sortBatches(batches, f.Memory)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomic(ctx, shardName(f.Output, bucket, n), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		var line []byte
		err := groups(in, func(key []byte, vals chunk.Values) error {
			nb, err := f.c.Gather(key, vals)
			if err != nil || nb == nil {
				return err
			}
			ch, err := f.c.Encode(nb)
			if err != nil {
				return err
			}
			line = ch.AppendJSON(line[:0])
			_, err = bw.Write(line)
			return err
		})
		if err != nil {
			return err
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

// checkScheme returns an error, naming the supported schemes, if path
// has a scheme no file system is linked in for: Beam itself would panic
// at start. Linked in are local paths (no scheme), gs:// and s3://; Beam's
// Go SDK v2.77.0 has no file system for hdfs://.
func checkScheme(path string) error {
	scheme, _, ok := strings.Cut(path, "://")
	if !ok || scheme == "" || scheme == "gs" || scheme == "s3" {
		return nil
	}
	return fmt.Errorf("isolda-beam: %s: no file system for %s:// is linked in (Beam's Go SDK v2.77.0 has none for hdfs://); supported: local paths, gs:// and s3://", path, scheme)
}
