package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/isolda/isolda/chunk"
)

// TestOrderedEncoder checks that the lines are written in the order the
// neighbourhoods were added, whatever the goroutines' speed, and that an
// encoding error is returned.
func TestOrderedEncoder(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		for _, total := range []int{0, 1, encodeBatch - 1, encodeBatch, 3*encodeBatch + 7} {
			nbs := make([]*chunk.Neighbourhood, total)
			index := map[*chunk.Neighbourhood]int{}
			var want bytes.Buffer
			for i := range nbs {
				nbs[i] = &chunk.Neighbourhood{}
				index[nbs[i]] = i
				ch := chunk.Chunk{Entity: fmt.Sprint(i)}
				want.Write(ch.AppendJSON(nil))
			}
			rng := rand.New(rand.NewPCG(uint64(workers), uint64(total)))
			delays := make([]time.Duration, total)
			for i := range delays {
				delays[i] = time.Duration(rng.IntN(200)) * time.Microsecond
			}
			encode := func(nb *chunk.Neighbourhood) (chunk.Chunk, error) {
				i := index[nb]
				time.Sleep(delays[i]) // out of order across goroutines
				return chunk.Chunk{Entity: fmt.Sprint(i)}, nil
			}
			var got bytes.Buffer
			e := newOrderedEncoder(encode, workers, &got)
			for _, nb := range nbs {
				e.add(nb)
			}
			docs, err := e.close()
			if err != nil || docs != total {
				t.Fatalf("workers %d, %d documents: close = %d, %v", workers, total, docs, err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("workers %d, %d documents: lines out of order:\n%s", workers, total, got.String())
			}
		}
	}
	boom := errors.New("boom")
	var got bytes.Buffer
	e := newOrderedEncoder(func(*chunk.Neighbourhood) (chunk.Chunk, error) { return chunk.Chunk{}, boom }, 2, &got)
	for range 3 * encodeBatch {
		e.add(&chunk.Neighbourhood{})
	}
	if _, err := e.close(); !errors.Is(err, boom) {
		t.Fatalf("close = %v, want %v", err, boom)
	}
	if got.Len() != 0 {
		t.Fatalf("wrote %q after an error", got.String())
	}
}

// TestBucketKey checks that a grouping key gives back its bucket and
// number of buckets, and that keys of no bucket are refused.
func TestBucketKey(t *testing.T) {
	for _, n := range []int{1, 2, 7, 1 << 20} {
		for _, b := range []int{0, 1, n / 2, n - 1} {
			if b >= n {
				continue
			}
			gb, gn, ok := splitKey(bucketKey(b, n))
			if !ok || gb != b || gn != n {
				t.Errorf("splitKey(bucketKey(%d, %d)) = %d, %d, %v", b, n, gb, gn, ok)
			}
		}
	}
	for _, k := range []int{0, 5, bucketKey(3, 3), -1} {
		if b, n, ok := splitKey(k); ok {
			t.Errorf("splitKey(%d) = %d, %d, true: want no bucket", k, b, n)
		}
	}
}

// TestOrderedEncoderBound checks that no more than 3 batches per goroutine
// are added and not yet written: while the first document's encoding is
// held, no document past them is encoded.
func TestOrderedEncoderBound(t *testing.T) {
	const workers = 2
	limit := 3 * workers * encodeBatch
	nbs := make([]*chunk.Neighbourhood, 3*limit)
	index := map[*chunk.Neighbourhood]int{}
	for i := range nbs {
		nbs[i] = &chunk.Neighbourhood{}
		index[nbs[i]] = i
	}
	var held atomic.Bool
	held.Store(true)
	var beyond atomic.Int64 // documents past the bound encoded while the first is held
	encode := func(nb *chunk.Neighbourhood) (chunk.Chunk, error) {
		i := index[nb]
		if i == 0 {
			time.Sleep(100 * time.Millisecond)
			held.Store(false)
		} else if held.Load() && i >= limit {
			beyond.Add(1)
		}
		return chunk.Chunk{Entity: fmt.Sprint(i)}, nil
	}
	var got bytes.Buffer
	e := newOrderedEncoder(encode, workers, &got)
	for _, nb := range nbs {
		e.add(nb)
	}
	if docs, err := e.close(); err != nil || docs != len(nbs) {
		t.Fatalf("close = %d, %v", docs, err)
	}
	if n := beyond.Load(); n > 0 {
		t.Fatalf("%d documents past the first %d encoded while the first was held", n, limit)
	}
}
