package py

import (
	"errors"
	"math/big"
	"math/bits"
)

const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// ErrEmptyRange is returned when a range or sequence to draw from is empty,
// or a sample size is out of range (Python raises ValueError or IndexError).
var ErrEmptyRange = errors.New("py: empty range")

// Rand is the state of one random.Random instance. It is not safe for
// concurrent use.
type Rand struct {
	mt  [mtN]uint32
	mti int
}

// NewRand returns the generator Python creates with random.Random(seed).
// Negative seeds behave as in Python: their absolute value is used.
func NewRand(seed int64) *Rand {
	u := uint64(seed)
	if seed < 0 {
		u = -u // two's complement absolute value, correct for MinInt64 too
	}
	var key []uint32
	switch {
	case u == 0:
		key = []uint32{0}
	case u>>32 == 0:
		key = []uint32{uint32(u)}
	default:
		key = []uint32{uint32(u), uint32(u >> 32)}
	}
	return NewRandFromKey(key)
}

// NewRandBig returns the generator Python creates with random.Random(seed) for
// an arbitrarily large integer seed.
func NewRandBig(seed *big.Int) *Rand {
	abs := new(big.Int).Abs(seed)
	if abs.Sign() == 0 {
		return NewRandFromKey([]uint32{0})
	}
	words := abs.Bits()
	var key []uint32
	for _, w := range words {
		for s := 0; s < bits.UintSize; s += 32 {
			key = append(key, uint32(uint64(w)>>s))
		}
	}
	for len(key) > 1 && key[len(key)-1] == 0 {
		key = key[:len(key)-1]
	}
	return NewRandFromKey(key)
}

// NewRandFromKey seeds the generator with MT19937's init_by_array(key), the
// little-endian 32-bit words of the seed. An empty key is treated as [0].
func NewRandFromKey(key []uint32) *Rand {
	if len(key) == 0 {
		key = []uint32{0}
	}
	r := &Rand{}
	r.initGenrand(19650218)
	i, j := 1, 0
	k := max(mtN, len(key))
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = mtN - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ ((r.mt[i-1] ^ (r.mt[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= mtN {
			r.mt[0] = r.mt[mtN-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
	return r
}

func (r *Rand) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < mtN; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.mti = mtN
}

// Uint32 returns the next 32-bit output of MT19937 (genrand_uint32).
func (r *Rand) Uint32() uint32 {
	if r.mti >= mtN {
		mag := [2]uint32{0, matrixA}
		var kk int
		for kk = 0; kk < mtN-mtM; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+mtM] ^ (y >> 1) ^ mag[y&1]
		}
		for ; kk < mtN-1; kk++ {
			y := (r.mt[kk] & upperMask) | (r.mt[kk+1] & lowerMask)
			r.mt[kk] = r.mt[kk+(mtM-mtN)] ^ (y >> 1) ^ mag[y&1]
		}
		y := (r.mt[mtN-1] & upperMask) | (r.mt[0] & lowerMask)
		r.mt[mtN-1] = r.mt[mtM-1] ^ (y >> 1) ^ mag[y&1]
		r.mti = 0
	}
	y := r.mt[r.mti]
	r.mti++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Random returns Python's random(): a float in [0, 1) with 53 random bits.
func (r *Rand) Random() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

// Uniform returns Python's uniform(a, b): a + (b-a) * random().
func (r *Rand) Uniform(a, b float64) float64 {
	return a + (b-a)*r.Random()
}

// GetRandBits returns Python's getrandbits(k) for 0 <= k <= 64. It panics
// for k outside that range (a programming error); use GetRandBitsBig for
// larger k.
func (r *Rand) GetRandBits(k int) uint64 {
	if k < 0 || k > 64 {
		panic("py: GetRandBits needs 0 <= k <= 64")
	}
	if k == 0 {
		return 0
	}
	if k <= 32 {
		return uint64(r.Uint32() >> (32 - k))
	}
	lo := uint64(r.Uint32())
	hi := uint64(r.Uint32() >> (64 - k))
	return hi<<32 | lo
}

// GetRandBitsBig returns Python's getrandbits(k) for any k >= 0 (negative k
// is treated as 0).
func (r *Rand) GetRandBitsBig(k int) *big.Int {
	out := new(big.Int)
	if k <= 0 {
		return out
	}
	var words []uint32
	for ; k > 0; k -= 32 {
		w := r.Uint32()
		if k < 32 {
			w >>= 32 - k
		}
		words = append(words, w)
	}
	for i := len(words) - 1; i >= 0; i-- {
		out.Lsh(out, 32)
		out.Or(out, big.NewInt(int64(words[i])))
	}
	return out
}

// randbelow is CPython's _randbelow_with_getrandbits for n > 0.
func (r *Rand) randbelow(nn uint64) uint64 {
	k := bits.Len64(nn)
	v := r.GetRandBits(k)
	for v >= nn {
		v = r.GetRandBits(k)
	}
	return v
}

// Below returns Python's _randbelow(n): a uniform integer in [0, n). It
// returns 0 for n <= 0 without consuming randomness (Python's function is
// undefined there; public callers check first).
func (r *Rand) Below(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.randbelow(uint64(n)))
}

// Intn returns randrange(n): a uniform integer in [0, n), or ErrEmptyRange
// when n <= 0.
func (r *Rand) Intn(n int) (int, error) {
	if n <= 0 {
		return 0, ErrEmptyRange
	}
	return r.Below(n), nil
}

// RandRange returns Python's randrange(start, stop, step).
func (r *Rand) RandRange(start, stop, step int) (int, error) {
	width := stop - start
	if step == 1 {
		if width > 0 {
			return start + r.Below(width), nil
		}
		return 0, ErrEmptyRange
	}
	var cnt int
	switch {
	case step > 0:
		cnt = floorDiv(width+step-1, step)
	case step < 0:
		cnt = floorDiv(width+step+1, step)
	default:
		return 0, errors.New("py: zero step for randrange")
	}
	if cnt <= 0 {
		return 0, ErrEmptyRange
	}
	return start + step*r.Below(cnt), nil
}

// RandInt returns Python's randint(a, b): a uniform integer in [a, b].
func (r *Rand) RandInt(a, b int) (int, error) {
	return r.RandRange(a, b+1, 1)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// ChoiceIndex returns the index Python's choice(seq) picks for a sequence
// of length size, or ErrEmptyRange for an empty sequence.
func (r *Rand) ChoiceIndex(size int) (int, error) {
	if size <= 0 {
		return 0, ErrEmptyRange
	}
	return r.Below(size), nil
}

// Choice returns Python's choice(seq). It returns ErrEmptyRange for an
// empty slice.
func Choice[T any](r *Rand, seq []T) (T, error) {
	i, err := r.ChoiceIndex(len(seq))
	if err != nil {
		var zero T
		return zero, err
	}
	return seq[i], nil
}

// Shuffle shuffles x in place exactly as Python's shuffle(x).
func Shuffle[T any](r *Rand, x []T) {
	for i := len(x) - 1; i >= 1; i-- {
		j := r.Below(i + 1)
		x[i], x[j] = x[j], x[i]
	}
}

// SampleIndices returns the indices Python's sample(population, k) selects
// from a population of size n, in selection order.
func (r *Rand) SampleIndices(n, k int) ([]int, error) {
	if k < 0 || k > n {
		return nil, errors.New("py: sample larger than population or is negative")
	}
	result := make([]int, k)
	setsize := 21
	if k > 5 {
		setsize += pow4CeilLog4(3 * k)
	}
	if n <= setsize {
		pool := make([]int, n)
		for i := range pool {
			pool[i] = i
		}
		for i := 0; i < k; i++ {
			j := r.Below(n - i)
			result[i] = pool[j]
			pool[j] = pool[n-i-1]
		}
		return result, nil
	}
	selected := make(map[int]struct{}, k)
	for i := 0; i < k; i++ {
		j := r.Below(n)
		for {
			if _, dup := selected[j]; !dup {
				break
			}
			j = r.Below(n)
		}
		selected[j] = struct{}{}
		result[i] = j
	}
	return result, nil
}

// pow4CeilLog4 returns 4**ceil(log(x, 4)) for x > 1. Python computes the
// logarithm in floating point; x = 3k is never a power of 4, so the exact
// integer computation agrees with it.
func pow4CeilLog4(x int) int {
	p := 1
	for p < x {
		p *= 4
	}
	return p
}

// Sample returns Python's sample(population, k), leaving population
// unchanged.
func Sample[T any](r *Rand, population []T, k int) ([]T, error) {
	idx, err := r.SampleIndices(len(population), k)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = population[j]
	}
	return out, nil
}
