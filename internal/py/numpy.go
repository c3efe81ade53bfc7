package py

// Source is a stream of uniform floats in [0, 1): Python's random() (Rand)
// or numpy's random_sample() (NumpyRandomState).
type Source interface {
	Random() float64
}

// NumpyRandomState reproduces numpy's legacy np.random.RandomState(seed) for
// an integer seed in [0, 2**32) as far as its uniform draws go: MT19937
// seeded with init_genrand(seed) (numpy's mt19937_seed, unlike Python's
// init_by_array), and random_sample() = (a>>5 · 2**26 + b>>6) / 2**53 from
// two 32-bit outputs. np.random.uniform(size=k) is k such draws in order.
type NumpyRandomState struct {
	mt Rand
}

// NewNumpyRandomState returns the state numpy's RandomState(seed) starts in;
// the seed is taken modulo 2**32 (numpy rejects other seeds).
func NewNumpyRandomState(seed uint32) *NumpyRandomState {
	r := &NumpyRandomState{}
	r.mt.initGenrand(seed)
	return r
}

// Uint32 returns the next 32-bit output of MT19937.
func (r *NumpyRandomState) Uint32() uint32 { return r.mt.Uint32() }

// Random returns numpy's random_sample(): a float in [0, 1) with 53 bits,
// the same construction as Python's random().
func (r *NumpyRandomState) Random() float64 { return r.mt.Random() }
