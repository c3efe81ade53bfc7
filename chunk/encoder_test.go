package chunk

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// TestOrderedEncoder checks that the lines are written in the order the
// neighbourhoods were added, whatever the goroutines' speed, and that an
// encoding error is returned.
func TestOrderedEncoder(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		for _, total := range []int{0, 1, encodeBatch - 1, encodeBatch, 3*encodeBatch + 7} {
			nbs := make([]*Neighbourhood, total)
			index := map[*Neighbourhood]int{}
			var want bytes.Buffer
			for i := range nbs {
				nbs[i] = &Neighbourhood{}
				index[nbs[i]] = i
				ch := Chunk{Entity: fmt.Sprint(i)}
				want.Write(ch.AppendJSON(nil))
			}
			rng := rand.New(rand.NewPCG(uint64(workers), uint64(total)))
			delays := make([]time.Duration, total)
			for i := range delays {
				delays[i] = time.Duration(rng.IntN(200)) * time.Microsecond
			}
			encode := func(nb *Neighbourhood) (Chunk, error) {
				i := index[nb]
				time.Sleep(delays[i]) // out of order across goroutines
				return Chunk{Entity: fmt.Sprint(i)}, nil
			}
			var got bytes.Buffer
			e := NewOrderedEncoder(encode, workers, &got)
			for _, nb := range nbs {
				e.Add(nb)
			}
			docs, err := e.Close()
			if err != nil || docs != int64(total) {
				t.Fatalf("workers %d, %d documents: close = %d, %v", workers, total, docs, err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("workers %d, %d documents: lines out of order:\n%s", workers, total, got.String())
			}
		}
	}
	boom := errors.New("boom")
	var got bytes.Buffer
	e := NewOrderedEncoder(func(*Neighbourhood) (Chunk, error) { return Chunk{}, boom }, 2, &got)
	for range 3 * encodeBatch {
		e.Add(&Neighbourhood{})
	}
	if _, err := e.Close(); !errors.Is(err, boom) {
		t.Fatalf("close = %v, want %v", err, boom)
	}
	if got.Len() != 0 {
		t.Fatalf("wrote %q after an error", got.String())
	}
}

// TestOrderedEncoderBound checks that no more than 3 batches per goroutine
// are added and not yet written: while the first document's encoding is
// held, no document past them is encoded.
func TestOrderedEncoderBound(t *testing.T) {
	const workers = 2
	limit := batchesPerWorker * workers * encodeBatch
	nbs := make([]*Neighbourhood, 3*limit)
	index := map[*Neighbourhood]int{}
	for i := range nbs {
		nbs[i] = &Neighbourhood{}
		index[nbs[i]] = i
	}
	var held atomic.Bool
	held.Store(true)
	var beyond atomic.Int64 // documents past the bound encoded while the first is held
	encode := func(nb *Neighbourhood) (Chunk, error) {
		i := index[nb]
		if i == 0 {
			time.Sleep(100 * time.Millisecond)
			held.Store(false)
		} else if held.Load() && i >= limit {
			beyond.Add(1)
		}
		return Chunk{Entity: fmt.Sprint(i)}, nil
	}
	var got bytes.Buffer
	e := NewOrderedEncoder(encode, workers, &got)
	for _, nb := range nbs {
		e.Add(nb)
	}
	if docs, err := e.Close(); err != nil || docs != int64(len(nbs)) {
		t.Fatalf("close = %d, %v", docs, err)
	}
	if n := beyond.Load(); n > 0 {
		t.Fatalf("%d documents past the first %d encoded while the first was held", n, limit)
	}
}
