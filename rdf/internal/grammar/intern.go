package grammar

import "unsafe"

// Interner turns byte slices into strings, returning the same string for
// content it has seen recently: the IRIs, labels and language tags of a
// document repeat, and sharing them saves most of a reader's allocations.
// It holds at most MaxEntries strings of up to maxLen bytes, forgetting
// them all when full, so its memory stays bounded on any input. The zero
// Interner is ready to use.
type Interner struct {
	m map[string]string
}

const (
	// MaxEntries is the number of strings an Interner keeps before it
	// forgets them all.
	MaxEntries = 4096
	maxLen     = 256 // longest string kept
)

// Len returns the number of strings the Interner holds.
func (in *Interner) Len() int { return len(in.m) }

// Intern returns string(b), shared with an earlier call when possible.
func (in *Interner) Intern(b []byte) string {
	s, _ := in.InternFresh(b)
	return s
}

// InternFresh is Intern that also reports whether the string is fresh: not
// returned by a recent call. Readers check a term only when it is fresh,
// since a string the Interner returns again was checked before.
func (in *Interner) InternFresh(b []byte) (string, bool) {
	if len(b) > maxLen {
		return string(b), true
	}
	if s, ok := in.m[string(b)]; ok {
		return s, false
	}
	if in.m == nil {
		in.m = make(map[string]string)
	} else if len(in.m) >= MaxEntries {
		clear(in.m)
	}
	s := string(b)
	in.m[s] = s
	return s, true
}

// View returns b as a string without copying: the string changes when b's
// bytes do, so it may only be used while they stay as they are (the
// readers' ReadOptions.Transient).
func View(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
