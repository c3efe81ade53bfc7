package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/synth"
)

// writeShards writes a synthetic graph as three N-Triples shards (one of
// them gzipped) and returns the whole graph's text.
func writeShards(t *testing.T, dir string, triples int64) []byte {
	t.Helper()
	var all bytes.Buffer
	if err := synth.Write(&all, synth.Options{Triples: triples, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(all.Bytes(), []byte("\n"))
	third := len(lines) / 3
	parts := [][][]byte{lines[:third], lines[third : 2*third], lines[2*third:]}
	for i, part := range parts {
		data := bytes.Join(part, nil)
		name := filepath.Join(dir, "shard-"+string(rune('a'+i))+".nt")
		if i == 1 {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(data)
			zw.Close()
			data, name = z.Bytes(), name+".gz"
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return all.Bytes()
}

// singleMachine runs chunk.Chunker.Run, what isolda chunk runs, on the
// whole graph.
func singleMachine(t *testing.T, graph []byte, opts chunk.Options) []string {
	t.Helper()
	c, err := chunk.New(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	read := func(s rdf.Sink) error {
		return rdfio.ReadInto(bytes.NewReader(graph), s, rdfio.Options{Format: rdfio.NTriples})
	}
	if _, err := c.Run(read, &out, chunk.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(out.String(), "\n")+"\n", "\n")[:strings.Count(out.String(), "\n")]
}

// TestPipelineEqualsChunk runs the pipeline on the Prism runner, in
// process, and checks that its output shards, concatenated and sorted,
// are line for line the output of the single-machine run; with one hop
// and a budget, and with two hops, another format and a class.
func TestPipelineEqualsChunk(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the Prism runner")
	}
	for _, tc := range []struct {
		name    string
		triples int64
		shards  int // 0: derived from the input size
		opts    chunk.Options
	}{
		{"isolda, budget", 3000, 3, chunk.Options{Budget: 300, Glossary: "none"}},
		{"ntriples, two hops, class", 1500, 0, chunk.Options{Format: "ntriples", Hops: 2, Budget: 0,
			Classes: []string{synth.NS + "Person"}, MaxStatements: 50}},
		// Small bounds make many hubs: links beyond the bounds, origins
		// and statements left out of a later hop.
		{"hubs, one hop", 2000, 0, chunk.Options{Format: "ntriples", MaxStatements: 4}},
		{"hubs, two hops", 2000, 2, chunk.Options{Hops: 2, MaxStatements: 3, Budget: 200, Glossary: "none"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			graph := writeShards(t, dir, tc.triples)
			want := singleMachine(t, graph, tc.opts)
			if len(want) < 20 {
				t.Fatalf("only %d documents", len(want))
			}
			if !slices.IsSorted(want) {
				t.Fatal("the single-machine lines are not in line order")
			}
			out := filepath.Join(dir, "out", "chunks")
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			const shardBytes = 16 << 10
			p, err := build(config{Inputs: []string{filepath.Join(dir, "shard-*")}, Output: out, Shards: tc.shards, ShardBytes: shardBytes,
				SplitBytes: 4 << 10, Opts: tc.opts}) // about 25 ranges of each uncompressed shard
			if err != nil {
				t.Fatal(err)
			}
			if _, err := prism.Execute(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			shards := tc.shards
			if shards == 0 {
				shards = numShards(0, shardBytes, inputSize(t, filepath.Join(dir, "shard-*")))
				if shards < 2 {
					t.Fatalf("%d shards from the input's size", shards)
				}
			}
			written, _ := filepath.Glob(out + "*")
			if len(written) != shards {
				t.Fatalf("%d files written, want %d shards: %q", len(written), shards, written)
			}
			var got []string
			for i := range shards {
				data, err := os.ReadFile(shardName(out, i, shards))
				if err != nil {
					t.Fatal(err)
				}
				lines := strings.SplitAfter(string(data), "\n")
				lines = lines[:len(lines)-1] // after the last LF
				if !slices.IsSorted(lines) {
					t.Fatalf("shard %d is not sorted", i)
				}
				got = append(got, lines...)
			}
			slices.Sort(got)
			if len(got) != len(want) {
				t.Fatalf("%d lines, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("line %d:\n%s\nwant\n%s", i, got[i], want[i])
				}
			}
			t.Logf("%d documents equal", len(got))
		})
	}
}

// inputSize returns the bytes of the files glob matches.
func inputSize(t *testing.T, glob string) int64 {
	t.Helper()
	names, err := filepath.Glob(glob)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, name := range names {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

// TestNumShards checks the shard count: fixed, or one per so many input
// bytes, at least one.
func TestNumShards(t *testing.T) {
	for _, tc := range []struct {
		fixed          int
		perShard, size int64
		want           int
	}{
		{4, 0, 1 << 40, 4},
		{0, 100, 0, 1},
		{0, 100, 100, 1},
		{0, 100, 101, 2},
		{0, 0, 3 * DefaultShardBytes, 3},
	} {
		if got := numShards(tc.fixed, tc.perShard, tc.size); got != tc.want {
			t.Errorf("numShards(%d, %d, %d) = %d, want %d", tc.fixed, tc.perShard, tc.size, got, tc.want)
		}
	}
}

// TestWriteAtomic checks that a shard is written through a temporary
// file: a failed write leaves the earlier file as it was and no
// temporary file; a complete one replaces it.
func TestWriteAtomic(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	name := filepath.Join(dir, "chunks-00000-of-00001.jsonl")
	if err := os.WriteFile(name, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("worker lost")
	err := writeAtomic(ctx, name, func(w io.Writer) error {
		io.WriteString(w, "half a li")
		// The temporary file is beside the shard, not the shard itself.
		if data, _ := os.ReadFile(name); string(data) != "old\n" {
			t.Errorf("during the write the shard holds %q", data)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if data, _ := os.ReadFile(name); string(data) != "old\n" {
		t.Errorf("after a failed write the shard holds %q", data)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("files left: %v", files)
	}
	if err := writeAtomic(ctx, name, func(w io.Writer) error {
		_, err := io.WriteString(w, "new\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(name); string(data) != "new\n" {
		t.Errorf("after a write the shard holds %q", data)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("files left: %v", files)
	}
}

// TestRangesSameStatements checks that a file read in byte ranges, of
// many sizes, gives exactly the statements of the whole file, each once
// and in the same order: with comments, blank lines, CRLF, a line longer
// than the reader's buffer and a last line without its LF.
func TestRangesSameStatements(t *testing.T) {
	var text bytes.Buffer
	if err := synth.Write(&text, synth.Options{Triples: 2000, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	text.WriteString("# a comment line\n\n<http://x/a> <http://x/p> \"CRLF\" .\r\n")
	text.WriteString("<http://x/a> <http://x/long> \"" + strings.Repeat("long ", 30000) + "\" .\n")
	text.WriteString("<http://x/b> <http://x/p> <http://x/a> <http://x/g> .\n")
	text.WriteString("<http://x/c> <http://x/p> \"no LF at the end\" .")
	ctx := context.Background()
	dir := t.TempDir()
	read := func(r fileRange) []string {
		var out []string
		err := readRange(ctx, r, rdf.SinkFunc(func(q rdf.Quad) error {
			out = append(out, q.String())
			return nil
		}))
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		return out
	}
	small := "<http://x/a> <http://x/p> \"1\" .\n\n# c\n<http://x/b> <http://x/p> \"2\" .\r\n<http://x/c> <http://x/p> \"3\" ."
	for i, tc := range []struct {
		text   string
		want   int
		splits []int64
	}{
		{text.String(), 2004, []int64{97, 999, 4096, 65536, 150001}},
		{small, 3, []int64{1, 2, 3, 5, 31, 32, 33, 34, 60}},
	} {
		path := filepath.Join(dir, fmt.Sprintf("graph-%d.nq", i))
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		whole := read(fileRange{Path: path, End: -1})
		if len(whole) != tc.want {
			t.Fatalf("%d statements in the whole file, want %d", len(whole), tc.want)
		}
		size := int64(len(tc.text))
		for _, split := range append(tc.splits, size-1, size, size+1) {
			rs := ranges(path, size, split)
			var got []string
			for _, r := range rs {
				got = append(got, read(r)...)
			}
			if !slices.Equal(got, whole) {
				t.Errorf("file %d split every %d bytes (%d ranges): %d statements, want the %d of the whole file", i, split, len(rs), len(got), len(whole))
			}
		}
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init() // what main does: the test binary is also the loopback worker
	os.Exit(m.Run())
}

// TestUnsupportedScheme checks that an input or output on a file system
// that is not linked in is an error naming the supported schemes, not a
// panic at start.
func TestUnsupportedScheme(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"hdfs://namenode/shards/*.nt", "out/chunks"},
		{"shards/*.nt", "hdfs://namenode/out/chunks"},
		{"webhdfs://namenode/shards/*.nt", "out/chunks"},
	} {
		_, err := build(config{Inputs: []string{tc.in}, Output: tc.out, Shards: 1})
		if err == nil || !strings.Contains(err.Error(), "supported: local paths, gs:// and s3://") {
			t.Errorf("%s -> %s: %v, want an error naming the supported schemes", tc.in, tc.out, err)
		}
	}
	for _, scheme := range []string{"gs", "s3"} {
		if _, err := build(config{Inputs: []string{scheme + "://bucket/*.nt"}, Output: scheme + "://bucket/out", Shards: 1}); err != nil {
			t.Errorf("%s://: %v", scheme, err)
		}
	}
}

// TestS3WithoutCredentials checks that an s3:// input without AWS
// credentials fails the run with an error that says so, not a panic.
func TestS3WithoutCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the Prism runner")
	}
	dir := t.TempDir()
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		t.Setenv(v, "")
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "none"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true") // no instance role: no network
	t.Setenv("AWS_REGION", "eu-west-1")
	p, err := build(config{Inputs: []string{"s3://isolda-no-such-bucket/shards/*.nt"}, Output: filepath.Join(dir, "chunks"), Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = prism.Execute(context.Background(), p)
	if err == nil || !strings.Contains(err.Error(), "credentials") || strings.Contains(err.Error(), "panic") {
		t.Fatalf("error %v, want one about credentials, without a panic", err)
	}
}

// TestEmptyGlob checks that a glob that matches no file fails the run
// instead of writing empty shards.
func TestEmptyGlob(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the Prism runner")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "chunks")
	p, err := build(config{Inputs: []string{filepath.Join(dir, "nothing-*.nt")}, Output: out, Shards: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prism.Execute(context.Background(), p); err == nil {
		t.Fatal("a glob that matches nothing ran without error")
	}
	if _, err := os.Stat(shardName(out, 0, 2)); err == nil {
		t.Error("a shard was written")
	}
}

// TestMissingInput checks that an input file that does not exist, given
// by name (no glob), fails the run and writes no shard.
func TestMissingInput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the Prism runner")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "chunks")
	p, err := build(config{Inputs: []string{filepath.Join(dir, "missing.nt")}, Output: out, Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prism.Execute(context.Background(), p); err == nil {
		t.Fatal("a missing input ran without error")
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

// TestBatchRoundTrip checks that a batch gives back its records, in
// order, repeated strings shared, and that a truncated one is an error.
func TestBatchRoundTrip(t *testing.T) {
	var recs [][2]string
	for i := range 500 {
		recs = append(recs, [2]string{fmt.Sprintf("Inode%d", i%7), fmt.Sprintf("value %d", i%13)})
	}
	recs = append(recs, [2]string{"", ""}, [2]string{"K", ""})
	var got [][2]string
	var batches [][]byte
	b := newBatcher(1, func(i int, data []byte) { batches = append(batches, data) })
	for _, r := range recs {
		b.add([]byte(r[0]), []byte(r[1]))
	}
	b.flush()
	if len(batches) != 1 {
		t.Fatalf("%d batches", len(batches))
	}
	if err := eachRecord(batches[0], func(k, v []byte) error {
		got = append(got, [2]string{string(k), string(v)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, recs) {
		t.Fatalf("records differ: got %d, want %d", len(got), len(recs))
	}
	if n := len(batches[0]); n > 2000 {
		t.Errorf("batch of %d bytes for 20 distinct strings and %d records", n, len(recs))
	}
	for cut := 1; cut < len(batches[0]); cut += 7 {
		err := eachRecord(batches[0][:cut], func(k, v []byte) error { return nil })
		if err == nil && cut < len(batches[0]) {
			// A cut between two records is a shorter valid batch.
			continue
		}
		if err != nil && !errors.Is(err, errBatch) {
			t.Fatalf("cut at %d: %v", cut, err)
		}
	}
	if err := eachRecord([]byte{5, 1, 'a'}, func(k, v []byte) error { return nil }); !errors.Is(err, errBatch) {
		t.Errorf("corrupt batch: %v", err)
	}
}
