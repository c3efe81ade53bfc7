// Package registry holds what the format sub-registries of package formats
// (graphtext, ontology, graphrag, kgllmbench) share: each declares its
// formats once, as a list built by one function, and finds a format by
// name and lists its metadata through the two functions here.
package registry

// Find returns the first entry of list whose name (nameOf) is name.
func Find[T any](list []T, name string, nameOf func(T) string) (T, bool) {
	for _, e := range list {
		if nameOf(e) == name {
			return e, true
		}
	}
	var zero T
	return zero, false
}

// Map returns f of every entry of list, in order: a registry's names or
// its metadata.
func Map[T, V any](list []T, f func(T) V) []V {
	out := make([]V, len(list))
	for i, e := range list {
		out[i] = f(e)
	}
	return out
}
