package kgllmbench

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// largestInstance returns the instance with the most edges (the first in
// file order on ties). It does not keep the other instances, so that the
// benchmark's heap holds one KG only.
func largestInstance(b *testing.B) *Instance {
	b.Helper()
	var best *Instance
	for _, task := range tasks {
		for _, v := range []string{"real", "pseudo"} {
			f, err := os.Open(filepath.Join(kgDir(b), "instances", "instances", task+"."+v+".jsonl.gz"))
			if err != nil {
				b.Fatal(err)
			}
			insts, err := LoadInstances(f)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			for i := range insts {
				if best == nil || len(insts[i].KG.Edges) > len(best.KG.Edges) {
					in := insts[i]
					best = &in
				}
			}
		}
	}
	runtime.GC()
	return best
}

// BenchmarkTextualize measures every format on the largest instance.
func BenchmarkTextualize(b *testing.B) {
	in := largestInstance(b)
	b.Logf("largest instance: %s %s #%d, %d edges, %d entities", in.Task, in.Variant, in.ID, len(in.KG.Edges), len(in.KG.Entities))
	for _, f := range Formats() {
		b.Run(f.Name, func(b *testing.B) {
			cw := &countWriter{}
			if err := Textualize(cw, &in.KG, f.Name); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(cw.n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := Textualize(io.Discard, &in.KG, f.Name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
