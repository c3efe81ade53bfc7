package chunk

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// cancelAfterWrite is a writer that cancels its context at its first
// write and keeps what it is given.
type cancelAfterWrite struct {
	cancel context.CancelFunc
	buf    bytes.Buffer
	writes int
}

func (w *cancelAfterWrite) Write(p []byte) (int, error) {
	w.writes++
	w.cancel()
	return w.buf.Write(p)
}

// TestRunContextCancelledWhileWriting cancels a run at its first write of
// documents: the run returns context.Canceled having encoded fewer
// documents than the whole run writes, and what it wrote is whole
// documents, the first ones of the whole run.
func TestRunContextCancelledWhileWriting(t *testing.T) {
	d := synthGraph(t, 20_000)
	c, err := New(Options{Budget: 256}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var full bytes.Buffer
	all, err := c.Run(readDataset(d, 0), &full, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if all.Entities < 2000 {
		t.Fatalf("the whole run wrote %d documents: too few for the test", all.Entities)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &cancelAfterWrite{cancel: cancel}
	st, err := c.RunContext(ctx, readDataset(d, 0), w, RunOptions{Workers: 2})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if st.Entities >= all.Entities {
		t.Errorf("cancelled run encoded %d documents, the whole run %d: it did not stop", st.Entities, all.Entities)
	}
	got := w.buf.Bytes()
	if len(got) == 0 || got[len(got)-1] != '\n' || !bytes.HasPrefix(full.Bytes(), got) {
		t.Errorf("cancelled run wrote %d bytes, not the first whole documents of the run", len(got))
	}
}

// TestRunContextCancelledWhileReading cancels a run while its statements
// are read: the sink refuses the next statements, and the run returns
// context.Canceled without writing anything.
func TestRunContextCancelledWhileReading(t *testing.T) {
	d := synthGraph(t, 20_000)
	c, err := New(Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sent := 0
	read := func(s rdf.Sink) error {
		for _, q := range d.Quads() {
			if sent == 100 {
				cancel()
			}
			if err := s.AddQuad(q); err != nil {
				return err
			}
			sent++
		}
		return nil
	}
	var out bytes.Buffer
	st, err := c.RunContext(ctx, read, &out, RunOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if sent >= d.Len() {
		t.Errorf("the reader sent all %d statements after the cancel", sent)
	}
	if out.Len() != 0 || st.Entities != 0 {
		t.Errorf("a run cancelled while reading wrote %d bytes, %d documents", out.Len(), st.Entities)
	}
}

// TestRunContextNotCancelled: a context that is not cancelled changes
// nothing.
func TestRunContextNotCancelled(t *testing.T) {
	d := synthGraph(t, 5_000)
	c, err := New(Options{Budget: 256}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if _, err := c.Run(readDataset(d, 0), &a, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RunContext(context.Background(), readDataset(d, 0), &b, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() == 0 {
		t.Errorf("RunContext wrote %d bytes, Run %d: not the same", b.Len(), a.Len())
	}
}
