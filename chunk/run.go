package chunk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/isolda/isolda/chunk/extsort"
	"github.com/isolda/isolda/rdf"
)

// RunOptions configure Run.
type RunOptions struct {
	// Memory is the memory, in bytes, the sort buffers may use in all; 0
	// means 1 GiB. Records beyond it are sorted on disk. Before each of
	// the last two hops Run also holds the keys of the IRIs whose
	// documents read none of its messages, within Memory/8.
	Memory int64
	// TmpDir holds the sorted runs; empty means os.TempDir().
	TmpDir string
	// MaxSpill bounds the bytes the sorts write to TmpDir in all (which
	// bounds the disk they use); 0 means no bound. A run that would
	// write more fails with an error wrapping rdf.ErrLimit.
	MaxSpill int64
	// Workers is the number of goroutines encoding documents; 0 means
	// GOMAXPROCS.
	Workers int
	// Progress, when set, is called about twice a second, and once at
	// the end of each phase, from one goroutine at a time.
	Progress func(Progress)
}

// DefaultMemory is the sort memory of RunOptions when none is given.
const DefaultMemory = 1 << 30

// Progress is a snapshot of a Run.
type Progress struct {
	// Phase is "read", "hop N" or "write".
	Phase string
	// Statements counts the statements read.
	Statements int64
	// Records counts the records of the phase processed, of RecordsTotal
	// (0 while reading, when the total is not known).
	Records, RecordsTotal int64
	// Entities counts the documents written.
	Entities int64
	// Elapsed is the time since the run started.
	Elapsed time.Duration
	// Done is set on the last call of a phase.
	Done bool
}

// Stats describe a finished Run.
type Stats struct {
	Statements int64 // statements read
	Records    int64 // records sorted, messages included
	Entities   int64 // documents written
	Spilled    int64 // bytes written to disk by the sorts
	Runs       int   // sorted runs written to disk
	InMemory   bool  // nothing was written to disk
}

// Run reads a graph with read (which sends every statement to the sink it
// is given), and writes the document of every entity to w as JSON lines
// sorted by entity IRI (bytewise). Memory stays within opts.Memory for the
// sorts, plus what the documents being encoded hold. It is RunContext
// with a context that is never cancelled.
func (c *Chunker) Run(read func(rdf.Sink) error, w io.Writer, opts RunOptions) (Stats, error) {
	return c.RunContext(context.Background(), read, w, opts)
}

// RunContext is Run that stops when ctx is done: the sink given to read
// then refuses statements, and the phases stop between entities, so the
// run returns ctx's error soon after (the documents written until then
// are whole; Stats count the work done).
func (c *Chunker) RunContext(ctx context.Context, read func(rdf.Sink) error, w io.Writer, opts RunOptions) (Stats, error) {
	if opts.Memory <= 0 {
		opts.Memory = DefaultMemory
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	r := &runner{c: c, ctx: ctx, opts: opts, start: time.Now(), last: time.Now()}
	if opts.MaxSpill > 0 {
		r.disk = extsort.NewDiskLimit(opts.MaxSpill)
	}
	defer r.close()
	if err := r.read(read); err != nil {
		return r.stats, r.limitError(err)
	}
	prev := (*extsort.Sorted)(nil)
	for j := 1; j <= c.hops; j++ {
		var closed map[string]struct{}
		if j >= c.hops-1 && !c.unbounded && !c.openAll {
			var err error
			if closed, err = r.closed(j); err != nil {
				return r.stats, err
			}
		}
		msgs, err := r.round(j, prev, closed)
		if err != nil {
			return r.stats, r.limitError(err)
		}
		r.msgs = append(r.msgs, msgs)
		prev = msgs
	}
	err := r.write(w)
	r.stats.InMemory = r.stats.Spilled == 0
	return r.stats, r.limitError(err)
}

// limitError replaces an error of the sorts' disk limit by one that
// names RunOptions.MaxSpill and wraps rdf.ErrLimit.
func (r *runner) limitError(err error) error {
	if !errors.Is(err, extsort.ErrDiskLimit) {
		return err
	}
	return fmt.Errorf("chunk: the sorts need more than %d bytes of temporary files (the disk limit): %w", r.opts.MaxSpill, rdf.ErrLimit)
}

type runner struct {
	c        *Chunker
	ctx      context.Context
	opts     RunOptions
	stmts    *extsort.Sorted
	disk     *extsort.DiskLimit // nil: no bound
	msgs     []*extsort.Sorted
	retained int64 // bytes of sorted records kept in memory
	stats    Stats
	prog     Progress
	start    time.Time
	last     time.Time
}

func (r *runner) close() {
	if r.stmts != nil {
		r.stmts.Close()
	}
	for _, m := range r.msgs {
		m.Close()
	}
}

// sorter returns a sorter with half the memory, the other half being for
// sorted records kept in memory by earlier phases.
func (r *runner) sorter() *extsort.Sorter {
	return extsort.New(extsort.Config{Memory: r.opts.Memory / 2, TmpDir: r.opts.TmpDir, Disk: r.disk})
}

// finish finishes a sorter, keeping its records in memory when the
// records kept so far leave room (at most half the memory in all).
func (r *runner) finish(s *extsort.Sorter) (*extsort.Sorted, error) {
	// An unspilled sorter holds at most one buffer, a quarter of the
	// memory.
	keep := r.retained+r.opts.Memory/4 <= r.opts.Memory/2
	out, err := s.Finish(keep)
	if err != nil {
		return nil, err
	}
	st := out.Stats()
	if st.InMemory {
		r.retained += r.opts.Memory / 4
	}
	r.stats.Records += st.Records
	r.stats.Spilled += st.Spilled
	r.stats.Runs += st.Runs
	return out, nil
}

// tick reports progress when half a second has passed, or at the end of
// a phase.
func (r *runner) tick(done bool) {
	if r.opts.Progress == nil {
		return
	}
	now := time.Now()
	if !done && now.Sub(r.last) < 500*time.Millisecond {
		return
	}
	r.last = now
	r.prog.Elapsed = now.Sub(r.start)
	r.prog.Done = done
	r.opts.Progress(r.prog)
}

// read maps every statement into the statement sorter.
func (r *runner) read(read func(rdf.Sink) error) error {
	s := r.sorter()
	m := r.c.NewMapper()
	r.prog = Progress{Phase: "read"}
	n := 0
	sink := rdf.SinkFunc(func(q rdf.Quad) error {
		r.stats.Statements++
		r.prog.Statements++
		if n++; n&4095 == 0 {
			if err := r.ctx.Err(); err != nil {
				return err
			}
			r.tick(false)
		}
		return m.Map(q, s.Add)
	})
	if err := read(sink); err != nil {
		if cerr := r.ctx.Err(); cerr != nil {
			return cerr // the reader's error is the refusal of the sink
		}
		return err
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.tick(true)
	var err error
	r.stmts, err = r.finish(s)
	return err
}

// groups calls f for each group of equal keys of the merged sets, with
// the group's values; it skips what f leaves unread. It counts records
// in r.prog, and stops with r.ctx's error when r.ctx is done.
func (r *runner) groups(sets []*extsort.Sorted, f func(key []byte, vals Values) error) error {
	it := extsort.Merge(sets...)
	r.prog.Records, r.prog.RecordsTotal = 0, 0
	for _, s := range sets {
		r.prog.RecordsTotal += s.Stats().Records
	}
	ok := it.Next()
	var key []byte
	for n := 0; ok; n++ {
		if n&255 == 0 {
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		key = append(key[:0], it.Key()...)
		vals := func(yield func([]byte) bool) {
			for ok && bytes.Equal(it.Key(), key) {
				if !yield(it.Value()) {
					return
				}
				r.prog.Records++
				ok = it.Next()
			}
		}
		if err := f(key, vals); err != nil {
			return err
		}
		for ok && bytes.Equal(it.Key(), key) {
			r.prog.Records++
			ok = it.Next()
		}
		r.tick(false)
	}
	return it.Err()
}

// closed returns the keys of the IRIs whose Gather will read none of
// the messages of the next hop and later: those that are no entity, and
// those that the messages of the earlier hops fill (Gather reads at most
// cap messages, in the order of their values, and the messages of a hop
// sort after those of the earlier ones). It runs Gather on their records
// so far, which gives what it will give on all their records, and keeps
// at most Memory/8 bytes of keys (beyond them the rounds send to the
// nodes left out what they would have sent: no document changes).
func (r *runner) closed(j int) (map[string]struct{}, error) {
	closed := map[string]struct{}{}
	budget := r.opts.Memory / 8
	r.prog.Phase = fmt.Sprintf("hop %d", j)
	err := r.groups(append([]*extsort.Sorted{r.stmts}, r.msgs...), func(key []byte, vals Values) error {
		if key[0] != kIRI || budget <= 0 {
			return nil // the last hop sends nothing to blank nodes
		}
		nb, err := r.c.Gather(key, vals)
		if err != nil {
			return err
		}
		if nb == nil || len(nb.msgs) >= r.c.cap {
			closed[string(key)] = struct{}{}
			budget -= int64(len(key)) + closedEntry
		}
		return nil
	})
	return closed, err
}

// closedEntry is about what an entry of a map[string]struct{} takes
// besides its key's bytes.
const closedEntry = 48

// round runs hop j over the statements and the messages of hop j-1,
// sending nothing to the nodes of closed.
func (r *runner) round(j int, prev *extsort.Sorted, closed map[string]struct{}) (*extsort.Sorted, error) {
	s := r.sorter()
	sets := []*extsort.Sorted{r.stmts}
	if prev != nil {
		sets = append(sets, prev)
	}
	r.prog.Phase = fmt.Sprintf("hop %d", j)
	err := r.groups(sets, func(key []byte, vals Values) error {
		emit := s.Add
		if r.c.trace != nil {
			emit = func(k, v []byte) error {
				r.c.trace(j, key, k, v)
				return s.Add(k, v)
			}
		}
		return r.c.round(j, key, vals, emit, closed)
	})
	if err != nil {
		s.Finish(false)
		return nil, err
	}
	r.tick(true)
	return r.finish(s)
}

// write gathers the neighbourhoods in key order and encodes them on the
// workers, writing the documents in the same order.
func (r *runner) write(w io.Writer) error {
	enc := NewOrderedEncoder(r.c.Encode, r.opts.Workers, w)
	r.prog.Phase = "write"
	gatherErr := r.groups(append([]*extsort.Sorted{r.stmts}, r.msgs...), func(key []byte, vals Values) error {
		nb, err := r.c.Gather(key, vals)
		if err != nil || nb == nil {
			return err
		}
		enc.Add(nb)
		r.prog.Entities = enc.Written()
		return nil
	})
	n, err := enc.Close()
	r.stats.Entities = n
	r.prog.Entities = n
	r.tick(true)
	if gatherErr != nil {
		return gatherErr
	}
	return err
}
