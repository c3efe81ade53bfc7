package py_test

import (
	"fmt"

	"github.com/isolda/isolda/internal/py"
)

// The same draws as CPython's
//
//	r = random.Random(7); r.random(); r.choice(['a','b','c','d'])
//	x = list(range(6)); r.shuffle(x); r.sample(range(100), 3)
func ExampleRand() {
	r := py.NewRand(7)
	fmt.Println(r.Random())
	c, _ := py.Choice(r, []string{"a", "b", "c", "d"})
	fmt.Println(c)
	x := []int{0, 1, 2, 3, 4, 5}
	py.Shuffle(r, x)
	fmt.Println(x)
	s, _ := r.SampleIndices(100, 3)
	fmt.Println(s)
	// Output:
	// 0.32383276483316237
	// b
	// [1 5 2 4 0 3]
	// [46 74 7]
}
