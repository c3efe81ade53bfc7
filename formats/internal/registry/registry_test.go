package registry

import (
	"slices"
	"testing"
)

type entry struct {
	name string
	n    int
}

func TestFindAndMap(t *testing.T) {
	list := []entry{{"a", 1}, {"b", 2}, {"a", 3}}
	name := func(e entry) string { return e.name }
	if e, ok := Find(list, "a", name); !ok || e.n != 1 {
		t.Errorf(`Find "a" = %v, %v; want the first "a"`, e, ok)
	}
	if e, ok := Find(list, "b", name); !ok || e.n != 2 {
		t.Errorf(`Find "b" = %v, %v`, e, ok)
	}
	if e, ok := Find(list, "c", name); ok || e != (entry{}) {
		t.Errorf(`Find "c" = %v, %v; want the zero entry, false`, e, ok)
	}
	if got := Map(list, name); !slices.Equal(got, []string{"a", "b", "a"}) {
		t.Errorf("Map = %v", got)
	}
	if got := Map([]entry(nil), name); got == nil || len(got) != 0 {
		t.Errorf("Map of nil = %#v, want an empty slice", got)
	}
}
