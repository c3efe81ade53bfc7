package task

// Source is a stream of uniform floats in [0, 1) (Python's random() or
// numpy's random_sample()).
type Source interface {
	Random() float64
}

// NumpyRandomState reproduces numpy's legacy np.random.RandomState(seed) for
// an integer seed in [0, 2**32) as far as its uniform draws go: MT19937
// seeded with init_genrand(seed) (numpy's mt19937_seed, unlike Python's
// init_by_array), and random_sample() = (a>>5 · 2**26 + b>>6) / 2**53 from
// two 32-bit outputs. np.random.uniform(size=k) is k such draws in order.
type NumpyRandomState struct {
	mt  [624]uint32
	pos int
}

// NewNumpyRandomState returns the state numpy's RandomState(seed) starts in;
// the seed is taken modulo 2**32 (numpy rejects other seeds).
func NewNumpyRandomState(seed uint32) *NumpyRandomState {
	r := &NumpyRandomState{}
	r.mt[0] = seed
	for i := 1; i < 624; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.pos = 624
	return r
}

// Uint32 returns the next 32-bit output of MT19937.
func (r *NumpyRandomState) Uint32() uint32 {
	const upper, lower = 0x80000000, 0x7fffffff
	if r.pos >= 624 {
		for i := 0; i < 624; i++ {
			y := r.mt[i]&upper | r.mt[(i+1)%624]&lower
			v := r.mt[(i+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			r.mt[i] = v
		}
		r.pos = 0
	}
	y := r.mt[r.pos]
	r.pos++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// Random returns numpy's random_sample(): a float in [0, 1) with 53 bits.
func (r *NumpyRandomState) Random() float64 {
	a, b := r.Uint32()>>5, r.Uint32()>>6
	return (float64(a)*67108864 + float64(b)) / 9007199254740992
}
