package stats

import (
	"math"
	"testing"
)

// FuzzMcNemarWilson checks invariants on arbitrary counts: p-values in
// [0, 1], mid-p never above the exact p-value, symmetry in b and c, and a
// Wilson interval inside [0, 1] that contains the observed proportion.
func FuzzMcNemarWilson(f *testing.F) {
	f.Add(uint32(0), uint32(0))
	f.Add(uint32(3), uint32(11))
	f.Add(uint32(100000), uint32(99000))
	f.Fuzz(func(t *testing.T, b32, c32 uint32) {
		b, c := int(b32%2000000), int(c32%2000000)
		p, m := McNemarExact(b, c), McNemarMidP(b, c)
		if !(p >= 0 && p <= 1 && m >= 0 && m <= 1) || m > p*(1+1e-12) {
			t.Fatalf("b=%d c=%d: exact %v mid-p %v", b, c, p, m)
		}
		if p != McNemarExact(c, b) || m != McNemarMidP(c, b) {
			t.Fatalf("b=%d c=%d: not symmetric", b, c)
		}
		n := b + c
		if n == 0 {
			return
		}
		iv, err := Wilson(b, n, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		ph := float64(b) / float64(n)
		if !(iv.Lo >= 0 && iv.Hi <= 1 && iv.Lo <= ph+1e-12 && ph <= iv.Hi+1e-12) {
			t.Fatalf("Wilson(%d, %d) = %v excludes %v", b, n, iv, ph)
		}
	})
}

// FuzzBCa feeds arbitrary data to the paired and the generic BCa paths: they
// must return an interval or an error, never panic, and a returned interval
// must be ordered and lie within the range of the replicates.
func FuzzBCa(f *testing.F) {
	f.Add([]byte{1, 0, 2, 1, 1, 0, 0, 2}, uint64(1))
	f.Add([]byte{}, uint64(0))
	f.Add([]byte{255}, uint64(9))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		if len(data) > 200 {
			data = data[:200]
		}
		x := make([]float64, len(data))
		a, b := make([]bool, len(data)), make([]bool, len(data))
		for i, v := range data {
			x[i] = float64(int8(v))
			a[i], b[i] = v&1 != 0, v&2 != 0
		}
		opt := BootstrapOptions{Seed: seed, Resamples: 200}
		if p, err := ComparePaired(a, b, opt); err == nil {
			if p.Bootstrap.Lo > p.Bootstrap.Hi || (p.BCaErr == nil && p.BCa.Lo > p.BCa.Hi) {
				t.Fatalf("unordered interval %+v", p)
			}
		}
		reps, err := BootstrapMeans(x, opt)
		if err != nil {
			return
		}
		s := Summarize(reps)
		var mean float64
		for _, v := range x {
			mean += v
		}
		mean /= float64(len(x))
		iv, err := BCaInterval(mean, reps, JackknifeMeans(x), 0.95)
		if err != nil {
			return
		}
		if iv.Lo > iv.Hi || iv.Lo < math.Min(s.Min, mean) || iv.Hi > math.Max(s.Max, mean) {
			t.Fatalf("BCa %v outside replicates [%v, %v]", iv, s.Min, s.Max)
		}
	})
}
