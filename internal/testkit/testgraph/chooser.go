package testgraph

import "math/rand/v2"

// Chooser is the source of a generator's random choices: a seeded
// generator for property tests (Seeded, or any *rand.Rand), the fuzzer's
// bytes for fuzz targets (FromBytes).
type Chooser interface {
	IntN(n int) int
}

// Seeded returns the seeded choices Hostile uses.
func Seeded(seed uint64) Chooser { return rand.New(rand.NewPCG(seed, 7)) }

// FromBytes turns fuzz input into choices, one byte each; after the last
// byte every choice is 0.
func FromBytes(b []byte) Chooser { return &byteChooser{b: b} }

type byteChooser struct {
	b []byte
	i int
}

func (c *byteChooser) IntN(n int) int {
	if c.i >= len(c.b) || n <= 1 {
		return 0
	}
	v := int(c.b[c.i])
	c.i++
	return v % n
}

func pick[T any](c Chooser, xs []T) T { return xs[c.IntN(len(xs))] }
