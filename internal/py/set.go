package py

// HashSet reproduces the iteration order of a CPython 3.11 set
// (Objects/setobject.c) of keys with given hashes, when nothing is removed:
// open addressing with LINEAR_PROBES = 9 and PERTURB_SHIFT = 5, a table of
// 8 slots that grows to the smallest power of two above 4·used when
// fill·5 >= mask·3, rehashing in old-table order.
type HashSet[K comparable] struct {
	table []setEntry[K]
	used  int
}

type setEntry[K comparable] struct {
	key  K
	hash uint64
	full bool
}

const (
	linearProbes = 9
	perturbShift = 5
	setMinSize   = 8
)

// NewHashSet returns an empty set (set()).
func NewHashSet[K comparable]() *HashSet[K] {
	return &HashSet[K]{table: make([]setEntry[K], setMinSize)}
}

// Len returns the number of elements.
func (s *HashSet[K]) Len() int { return s.used }

// Add adds key, whose Python hash is hash (set.add). Keys are equal when
// their hashes are equal and they are == in Go.
func (s *HashSet[K]) Add(key K, hash int64) {
	h := uint64(hash)
	mask := uint64(len(s.table) - 1)
	i := h & mask
	perturb := h
	for {
		probes := uint64(0)
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		for j := uint64(0); j <= probes; j++ {
			e := &s.table[i+j]
			if !e.full {
				*e = setEntry[K]{key: key, hash: h, full: true}
				s.used++
				if uint64(s.used)*5 >= mask*3 {
					n := s.used * 4
					if s.used > 50000 {
						n = s.used * 2
					}
					s.resize(n)
				}
				return
			}
			if e.hash == h && e.key == key {
				return
			}
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// resize is set_table_resize: the smallest power of two above minused
// (at least 8) slots, the old entries inserted in table order.
func (s *HashSet[K]) resize(minused int) {
	size := setMinSize
	for size <= minused {
		size <<= 1
	}
	old := s.table
	s.table = make([]setEntry[K], size)
	for _, e := range old {
		if e.full {
			s.insertClean(e)
		}
	}
}

// insertClean is set_insert_clean: e goes into the first empty slot of its
// probe sequence.
func (s *HashSet[K]) insertClean(e setEntry[K]) {
	mask := uint64(len(s.table) - 1)
	i := e.hash & mask
	perturb := e.hash
	for {
		if !s.table[i].full {
			s.table[i] = e
			return
		}
		if i+linearProbes <= mask {
			for j := uint64(1); j <= linearProbes; j++ {
				if !s.table[i+j].full {
					s.table[i+j] = e
					return
				}
			}
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// Copy returns set(s) (also s.copy()): set_merge into an empty set, which
// first grows it to the smallest power of two above 2·len(s) slots when
// len(s)·5 >= 21, then copies the table as it is when the sizes agree, or
// else inserts the entries in s's table order.
func (s *HashSet[K]) Copy() *HashSet[K] {
	c := NewHashSet[K]()
	if s.used == 0 {
		return c
	}
	if s.used*5 >= (setMinSize-1)*3 {
		c.resize(s.used * 2)
	}
	if len(c.table) == len(s.table) {
		copy(c.table, s.table)
	} else {
		for _, e := range s.table {
			if e.full {
				c.insertClean(e)
			}
		}
	}
	c.used = s.used
	return c
}

// Items returns the elements in the order Python iterates them.
func (s *HashSet[K]) Items() []K {
	out := make([]K, 0, s.used)
	for _, e := range s.table {
		if e.full {
			out = append(out, e.key)
		}
	}
	return out
}

// IntSet is a set of small non-negative ints, whose hash is the int itself.
type IntSet struct{ s *HashSet[int] }

// NewIntSet returns an empty set.
func NewIntSet() *IntSet { return &IntSet{NewHashSet[int]()} }

// Len returns the number of elements.
func (s *IntSet) Len() int { return s.s.Len() }

// Add adds x, which must not be negative.
func (s *IntSet) Add(x int) { s.s.Add(x, int64(x)) }

// Items returns the elements in the order Python iterates them.
func (s *IntSet) Items() []int { return s.s.Items() }
