package py

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"testing"

	"github.com/isolda/isolda/internal/testkit/oracle"
)

// The fixtures in testdata/cpython_fixtures.json were produced by CPython
// 3.11.7's random module with
//
//	cd internal/py/testdata && python3 gen_fixtures.py
//
// They are the independent oracle for every test below.
type fixtureCase struct {
	Seed        string               `json:"seed"`
	Uint32      []uint32             `json:"uint32"`
	Random      []float64            `json:"random"`
	GetRandBits [][2]json.RawMessage `json:"getrandbits"`
	RandRange   [][4]int             `json:"randrange"`
	RandInt     [][3]int             `json:"randint"`
	Choice      [][2]int             `json:"choice"`
	Shuffle25   []int                `json:"shuffle25"`
	Sample      []json.RawMessage    `json:"sample"`
	After       uint32               `json:"after"`
}

func loadFixtures(t *testing.T) []fixtureCase {
	t.Helper()
	data, err := os.ReadFile("testdata/cpython_fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Python string        `json:"python"`
		Cases  []fixtureCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("no fixture cases")
	}
	return f.Cases
}

func seeded(t *testing.T, s string) *Rand {
	t.Helper()
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad seed %q", s)
	}
	if b.IsInt64() {
		r1, r2 := NewRand(b.Int64()), NewRandBig(b)
		for i := 0; i < 700; i++ { // past one twist of the state
			if x, y := r1.Uint32(), r2.Uint32(); x != y {
				t.Fatalf("seed %s: New and NewRandBig disagree at %d: %d vs %d", s, i, x, y)
			}
		}
		return NewRand(b.Int64())
	}
	return NewRandBig(b)
}

func TestAgainstCPython(t *testing.T) {
	cases := loadFixtures(t)
	tally := oracle.NewTally(t)
	check := tally.Check
	for _, c := range cases {
		r := seeded(t, c.Seed)
		for i, want := range c.Uint32 {
			got := r.GetRandBits(32)
			check(got == uint64(want), "seed %s uint32[%d] = %d, want %d", c.Seed, i, got, want)
		}
		for i, want := range c.Random {
			got := r.Random()
			check(got == want, "seed %s random[%d] = %v, want %v", c.Seed, i, got, want)
		}
		for _, pair := range c.GetRandBits {
			var k int
			var ws string
			if err := json.Unmarshal(pair[0], &k); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(pair[1], &ws); err != nil {
				t.Fatal(err)
			}
			var got string
			if k <= 64 {
				got = fmt.Sprint(r.GetRandBits(k))
			} else {
				got = r.GetRandBitsBig(k).String()
			}
			check(got == ws, "seed %s getrandbits(%d) = %s, want %s", c.Seed, k, got, ws)
		}
		for _, q := range c.RandRange {
			got, err := r.RandRange(q[0], q[1], q[2])
			check(err == nil && got == q[3], "seed %s randrange(%d,%d,%d) = %d,%v want %d", c.Seed, q[0], q[1], q[2], got, err, q[3])
		}
		for _, q := range c.RandInt {
			got, err := r.RandInt(q[0], q[1])
			check(err == nil && got == q[2], "seed %s randint(%d,%d) = %d,%v want %d", c.Seed, q[0], q[1], got, err, q[2])
		}
		for _, q := range c.Choice {
			seq := make([]int, q[0])
			for i := range seq {
				seq[i] = i
			}
			got, err := Choice(r, seq)
			check(err == nil && got == q[1], "seed %s choice(range(%d)) = %d, want %d", c.Seed, q[0], got, q[1])
		}
		x := make([]int, 25)
		for i := range x {
			x[i] = i
		}
		Shuffle(r, x)
		check(fmt.Sprint(x) == fmt.Sprint(c.Shuffle25), "seed %s shuffle = %v, want %v", c.Seed, x, c.Shuffle25)
		for _, raw := range c.Sample {
			var row []json.RawMessage
			var nn, k int
			var want []int
			if err := json.Unmarshal(raw, &row); err != nil || len(row) != 3 {
				t.Fatalf("bad sample row %s", raw)
			}
			_ = json.Unmarshal(row[0], &nn)
			_ = json.Unmarshal(row[1], &k)
			_ = json.Unmarshal(row[2], &want)
			pop := make([]int, nn)
			for i := range pop {
				pop[i] = i
			}
			got, err := Sample(r, pop, k)
			check(err == nil && fmt.Sprint(got) == fmt.Sprint(want), "seed %s sample(range(%d),%d) = %v, want %v", c.Seed, nn, k, got, want)
		}
		got := r.Uint32()
		check(got == c.After, "seed %s final uint32 = %d, want %d (stream out of step)", c.Seed, got, c.After)
	}
	t.Logf("random vs CPython: %d seeds, %d checks, %d passed, %d failed", len(cases), tally.Checks, tally.Checks-tally.Fails, tally.Fails)
}

func TestErrors(t *testing.T) {
	r := NewRand(1)
	if _, err := r.RandRange(5, 5, 1); err == nil {
		t.Error("randrange(5,5) should fail")
	}
	if _, err := r.RandRange(0, 10, 0); err == nil {
		t.Error("zero step should fail")
	}
	if _, err := r.RandRange(0, 10, -1); err == nil {
		t.Error("randrange(0,10,-1) is empty")
	}
	if _, err := Choice(r, []int{}); err == nil {
		t.Error("choice of empty should fail")
	}
	if _, err := Sample(r, []int{1, 2}, 3); err == nil {
		t.Error("sample too large should fail")
	}
	if _, err := Sample(r, []int{1, 2}, -1); err == nil {
		t.Error("negative sample should fail")
	}
	if _, err := r.Intn(0); err == nil {
		t.Error("Intn(0) should fail")
	}
}

func TestPow4(t *testing.T) {
	// 4**ceil(log(3k, 4)) in Python for k = 6..200, computed with math.log
	// semantics by hand: boundaries at 3k > 16, 64, 256.
	for k := 6; k <= 200; k++ {
		want := 16
		switch {
		case 3*k > 256:
			want = 1024
		case 3*k > 64:
			want = 256
		case 3*k > 16:
			want = 64
		}
		if got := pow4CeilLog4(3 * k); got != want {
			t.Errorf("k=%d: got %d want %d", k, got, want)
		}
	}
}

func BenchmarkUint32(b *testing.B) {
	r := NewRand(7)
	for b.Loop() {
		r.Uint32()
	}
}
