package main

import (
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
	register.DoFn4x1[context.Context, fileio.FileMetadata, int, func(fileRange), error](&splitFn{})
	register.DoFn3x1[context.Context, fileRange, func(int, []byte), error](&readFn{})
	register.Emitter1[fileRange]()
	register.DoFn5x1[context.Context, int, func(*[]byte) bool, func(*[]byte) bool, func(int, []byte), error](&hop1Fn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, []byte), error](&hopFn{})
	register.DoFn4x1[int, func(*[]byte) bool, func([]byte), func(int, []byte), error](&hubFn{})
	register.Emitter1[[]byte]()
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int), error](&gatherFn{})
	register.DoFn2x0[context.Context, int](&countDocs{})
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
	// NoHubBounds leaves out the hubs' pass: every neighbour of a hub
	// sends it its messages, as before the pass (for comparison).
	NoHubBounds bool
	// Trace, when set, is a node IRI whose messages received are counted
	// (the counter messages-to-traced-node).
	Trace string
	// Workers is the number of goroutines that encode the documents of
	// a bucket on its worker; 0 means the worker's GOMAXPROCS.
	Workers int
}

// metricsNS is the namespace of the pipeline's counters.
const metricsNS = "isolda-beam"

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
	// n reaches the steps after splitting in the ranges, then in the
	// grouping keys (bucketKey): only the split, which is brief, has it as
	// a side input.
	parts := beam.ParDo(rs, &splitFn{Bytes: split}, beam.Reshuffle(rs, matched), beam.SideInput{Input: n})
	stmts := beam.ParDo(rs, &readFn{Opts: cfg.Opts}, beam.Reshuffle(rs, parts))
	// The hubs' cut-offs, from the statement records grouped for hop 1.
	grouped := beam.GroupByKey(s.Scope("hop1"), stmts)
	// They reach hop 1 as a side input, and the later hops in their main
	// input (hubRecords): a side input costs Prism a core while the stage
	// runs (see bucketKey).
	var hubs beam.PCollection
	var hubRecs []beam.PCollection
	if cfg.NoHubBounds {
		hubs = beam.CreateList(s, [][]byte{})
	} else {
		var recs beam.PCollection
		hubs, recs = beam.ParDo2(s.Scope("hubs"), &hubFn{Cap: maxStatements(cfg.Opts), Memory: mem, Broadcast: c.Hops() > 1}, grouped)
		hubRecs = append(hubRecs, recs)
	}
	var msgs []beam.PCollection
	for j := 1; j <= c.Hops(); j++ {
		hs := s.Scope(fmt.Sprintf("hop%d", j))
		hop := hopFn{Opts: cfg.Opts, Hop: j, Memory: mem}
		if j == 1 {
			msgs = append(msgs, beam.ParDo(hs, &hop1Fn{hop}, grouped, beam.SideInput{Input: hubs}))
			continue
		}
		grouped = beam.GroupByKey(hs, beam.Flatten(hs, append([]beam.PCollection{stmts, msgs[j-2]}, hubRecs...)...))
		msgs = append(msgs, beam.ParDo(hs, &hop, grouped))
	}
	ws := s.Scope("write")
	// An empty batch for every bucket, so that buckets without records
	// are written too (empty).
	empty := beam.ParDo(ws, emptyBuckets, n)
	all := beam.Flatten(ws, append([]beam.PCollection{stmts, empty}, msgs...)...)
	docs := beam.ParDo(ws, &gatherFn{Opts: cfg.Opts, Output: cfg.Output, Memory: mem, Trace: cfg.Trace, Workers: cfg.Workers}, beam.GroupByKey(ws, all))
	// The documents written, summed (a combiner: a shuffle) and counted.
	// Besides the counter, this gives the gathering stage an output that
	// leaves it: Prism v2.77.0 waits for a bundle of a stage with no
	// output in a loop that never blocks (stage.Execute selects on a
	// closed channel), which took a core for the whole gathering.
	beam.ParDo0(ws, &countDocs{}, stats.Sum(ws, docs))
	return p, nil
}

// countDocs adds the number of documents written to the counter
// documents-written.
type countDocs struct{}

func (f *countDocs) ProcessElement(ctx context.Context, n int) {
	beam.NewCounter(metricsNS, "documents-written").Inc(ctx, int64(n))
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
		emit(bucketKey(i, n), nil)
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
// emits, batched by the bucket of their target, the messages the next
// steps can read (msgFilter), with the bounds of the hubs (a side input
// of their cut-offs, see hubs.go) applied to what is sent to them.
type hopFn struct {
	Opts   chunk.Options `json:"opts"`
	Hop    int           `json:"hop"`
	Memory int64         `json:"memory"`
	c      *chunk.Chunker

	toHubs, keptHubs, toBlank beam.Counter
}

func (f *hopFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	f.toHubs = beam.NewCounter(metricsNS, "messages-to-hubs-sent")
	f.keptHubs = beam.NewCounter(metricsNS, "messages-to-hubs-kept")
	f.toBlank = beam.NewCounter(metricsNS, "messages-to-blank-nodes-dropped")
	return err
}

// hopCounts counts, in a bucket's hop, the messages Round sends to hubs
// and those kept of them, and those dropped for blank nodes.
type hopCounts struct {
	sent, kept int64
	blank      int64 // dropped: to a blank node in the last hop
}

// hop1Fn runs hop 1, with the hubs' cut-offs as a side input (the hub
// pass reads the same grouping).
type hop1Fn struct {
	hopFn
}

func (f *hop1Fn) ProcessElement(ctx context.Context, key int, batches func(*[]byte) bool, hubIter func(*[]byte) bool, emit func(int, []byte)) error {
	hubs, err := loadHubs(hubIter)
	if err != nil {
		return err
	}
	return f.process(ctx, key, batches, hubs, emit)
}

// ProcessElement runs a hop after the first: the hubs' cut-offs come
// first in the bucket's sorted records (hubRecords).
func (f *hopFn) ProcessElement(ctx context.Context, key int, batches func(*[]byte) bool, emit func(int, []byte)) error {
	return f.process(ctx, key, batches, hubCuts{}, emit)
}

// process runs the hop on a bucket; hubs holds the hubs' cut-offs, and
// gets those that come as records of the bucket.
func (f *hopFn) process(ctx context.Context, key int, batches func(*[]byte) bool, hubs hubCuts, emit func(int, []byte)) error {
	_, n, ok := splitKey(key)
	if !ok {
		return fmt.Errorf("isolda-beam: hop %d: grouping key %d is no bucket", f.Hop, key)
	}
	in, err := sortBatches(batches, f.Memory/2)
	if err != nil {
		return err
	}
	defer in.Close()
	b := newBatcher(n, emit)
	var counts hopCounts
	defer func() {
		f.toHubs.Inc(ctx, counts.sent)
		f.keptHubs.Inc(ctx, counts.kept)
		f.toBlank.Inc(ctx, counts.blank)
	}()
	keep := newMsgFilter(maxStatements(f.Opts), f.Hop < f.c.Hops(), true)
	if f.Hop == 1 || f.Hop == f.c.Hops() {
		return f.byRuns(in, keep, b, hubs, &counts)
	}
	sent := extsort.New(extsort.Config{Memory: f.Memory / 2})
	err = hubGroups(in, hubs, func(key []byte, vals chunk.Values) error {
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
		h := hubs[string(key)]
		hub := h != nil
		if hub && h.unread {
			for range vals {
				counts.sent++
			}
			return nil
		}
		keep.reset()
		keep.round = !hub // a hub forwards nothing
		for v := range vals {
			if hub {
				counts.sent++
			}
			if keep.keep(v) {
				b.add(key, v)
				if hub {
					counts.kept++
				}
			}
		}
		return nil
	})
	b.flush()
	return err
}

// maxDeferred bounds the messages to hubs a sender holds in hop 1 until
// it has read its records (see byRuns); past it they are kept.
const maxDeferred = 1 << 16

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
//
// The hubs are bounded here. In hop 1 a run to a hub is kept only when
// the sender is within the hub's bounds (boundsOf): Round sends to its
// neighbours once it has read its records, when that is known, but a hub
// describes itself to the neighbours beyond its own bounds as it meets
// them, so such a run to another hub waits for the end of the sender's
// records. In the last hop (with --hops 2 or more) the runs to a hub go
// through a farSelector over the whole bucket, emitted at its end.
func (f *hopFn) byRuns(in *extsort.Sorted, keep *msgFilter, b *batcher, hubs hubCuts, counts *hopCounts) error {
	last := f.Hop == f.c.Hops()
	round := keep.round
	far := newFarSelector(maxStatements(f.Opts))
	bounds := &boundsOf{hubs: hubs, within: map[string]bool{}}
	type run struct {
		key  []byte
		vals [][]byte
	}
	var deferred []run
	deferredN := 0
	read := false // the sender's records are all read
	var key []byte
	var vals [][]byte
	var err error
	// send filters a run and batches what it keeps.
	send := func(key []byte, vals [][]byte) {
		slices.SortFunc(vals, bytes.Compare)
		vals = slices.CompactFunc(vals, bytes.Equal)
		h := hubs[string(key)]
		hub := h != nil
		if hub {
			counts.sent += int64(len(vals))
			if h.unread {
				return
			}
		}
		if last && key[0] == kindBlank {
			counts.blank += int64(len(vals))
			return // Gather writes no blank node, and no hop follows
		}
		if hub && last && f.Hop > 1 {
			for _, v := range vals {
				if _, ferr := far.add(key, v); ferr != nil && err == nil {
					err = ferr
				}
			}
			return
		}
		keep.reset()
		keep.round = round && !hub // a hub forwards nothing
		for _, v := range vals {
			if keep.keep(v) {
				b.add(key, v)
				if hub {
					counts.kept++
				}
			}
		}
	}
	flush := func() {
		if len(vals) == 0 {
			return
		}
		switch {
		case f.Hop > 1 || hubs[string(key)] == nil:
			send(key, vals)
		case !read && deferredN < maxDeferred:
			deferred = append(deferred, run{bytes.Clone(key), vals})
			deferredN += len(vals)
			vals = nil
			return
		case !read || bounds.within[string(key)]:
			send(key, vals)
		default:
			counts.sent += int64(len(vals)) // dropped: beyond the hub's bounds
		}
		vals = vals[:0]
	}
	gerr := hubGroups(in, hubs, func(node []byte, recs chunk.Values) error {
		bounds.reset()
		read = f.Hop > 1
		records := recs
		if f.Hop == 1 && len(hubs) > 0 {
			records = func(yield func([]byte) bool) {
				for v := range recs {
					bounds.add(node, v)
					if !yield(v) {
						return
					}
				}
				read = true
			}
		}
		err := f.c.Round(f.Hop, node, records, func(k, v []byte) error {
			if !bytes.Equal(k, key) {
				flush()
				key = append(key[:0], k...)
			}
			vals = append(vals, slices.Clone(v))
			return nil
		})
		read = true
		flush()
		for _, r := range deferred {
			if bounds.within[string(r.key)] {
				send(r.key, r.vals)
			} else {
				counts.sent += int64(len(r.vals))
			}
		}
		deferred, deferredN = deferred[:0], 0
		return err
	})
	flush()
	counts.kept += int64(far.flush(b))
	b.flush()
	if gerr != nil {
		return gerr
	}
	return err
}

// gatherFn gathers and encodes the documents of the entities of a bucket
// (their statement records joined with every hop's messages, sorted) and
// writes them, in order, as output shard number bucket of n.
type gatherFn struct {
	Opts   chunk.Options `json:"opts"`
	Output string        `json:"output"`
	Memory int64         `json:"memory"`
	Trace  string        `json:"trace"`
	// Workers is the number of goroutines encoding the documents of a
	// bucket; 0 means GOMAXPROCS.
	Workers int `json:"workers"`
	c       *chunk.Chunker

	toHub  beam.Distribution
	traced beam.Counter
}

func (f *gatherFn) Setup() (err error) {
	f.c, err = chunk.New(f.Opts, nil)
	f.toHub = beam.NewDistribution(metricsNS, "messages-to-a-hub")
	f.traced = beam.NewCounter(metricsNS, "messages-to-traced-node")
	return err
}

// shardName names output shard i of n.
func shardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

func (f *gatherFn) ProcessElement(ctx context.Context, key int, batches func(*[]byte) bool, written func(int)) error {
	bucket, n, ok := splitKey(key)
	if !ok {
		return fmt.Errorf("isolda-beam: gather: grouping key %d is no bucket", key)
	}
	in, err := sortBatches(batches, f.Memory)
	if err != nil {
		return err
	}
	defer in.Close()
	docs := 0
	err = writeAtomic(ctx, shardName(f.Output, bucket, n), func(w io.Writer) error {
		enc := chunk.NewOrderedEncoder(f.c.Encode, f.Workers, w)
		bound := int64(maxStatements(f.Opts))
		trace := ""
		if f.Trace != "" {
			trace = "I" + f.Trace // the key of an IRI
		}
		err := groups(in, func(key []byte, vals chunk.Values) error {
			var own, links, msgs int64
			count := func(v []byte, n int64) {
				switch v[0] {
				case tagDesc, tagOwn:
					own += n
				case tagIn:
					links += n
				case tagMsg:
					msgs += n
				}
			}
			counted := func(yield func([]byte) bool) {
				for v := range vals {
					count(v, 1)
					if !yield(v) {
						count(v, -1) // it comes again
						return
					}
				}
			}
			nb, err := f.c.Gather(key, counted)
			for range counted { // what Gather leaves unread
			}
			if own > bound || links > bound {
				f.toHub.Update(ctx, msgs)
			}
			if trace != "" && string(key) == trace {
				f.traced.Inc(ctx, msgs)
			}
			if err != nil || nb == nil {
				return err
			}
			enc.Add(nb)
			return nil
		})
		d, werr := enc.Close()
		docs = int(d)
		if err != nil {
			return err
		}
		return werr
	})
	if err == nil {
		written(docs)
	}
	return err
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
