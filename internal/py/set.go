package py

// IntSet reproduces the iteration order of a CPython set of small
// non-negative ints (hash(x) == x): open addressing with LINEAR_PROBES = 9,
// PERTURB_SHIFT = 5, a table of 8 slots that grows to the smallest power of
// two above 4·used when fill·5 >= mask·3 (CPython 3.11 setobject.c).
type IntSet struct {
	table []int // -1 = empty
	used  int
}

// NewIntSet returns an empty set.
func NewIntSet() *IntSet {
	t := make([]int, 8)
	for i := range t {
		t[i] = -1
	}
	return &IntSet{table: t}
}

// Len returns the number of elements.
func (s *IntSet) Len() int { return s.used }

// Add adds x, which must not be negative.
func (s *IntSet) Add(x int) {
	mask := len(s.table) - 1
	i := x & mask
	perturb := x
	for {
		probes := 0
		if i+9 <= mask {
			probes = 9
		}
		for j := 0; j <= probes; j++ {
			e := s.table[i+j]
			if e == x {
				return
			}
			if e == -1 {
				s.table[i+j] = x
				s.used++
				if s.used*5 >= mask*3 {
					s.resize(s.used * 4)
				}
				return
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & mask
	}
}

func (s *IntSet) resize(minused int) {
	size := 8
	for size <= minused {
		size <<= 1
	}
	old := s.table
	s.table = make([]int, size)
	for i := range s.table {
		s.table[i] = -1
	}
	mask := size - 1
	for _, x := range old {
		if x < 0 {
			continue
		}
		i := x & mask
		perturb := x
	insert:
		for {
			if s.table[i] == -1 {
				s.table[i] = x
				break
			}
			if i+9 <= mask {
				for j := 1; j <= 9; j++ {
					if s.table[i+j] == -1 {
						s.table[i+j] = x
						break insert
					}
				}
			}
			perturb >>= 5
			i = (i*5 + 1 + perturb) & mask
		}
	}
}

// Items returns the elements in the order Python iterates them.
func (s *IntSet) Items() []int {
	out := make([]int, 0, s.used)
	for _, x := range s.table {
		if x >= 0 {
			out = append(out, x)
		}
	}
	return out
}
