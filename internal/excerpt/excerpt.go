// Package excerpt quotes input in error messages with a size cap, so that
// a hostile input (a 50 MB term) cannot flood a log or a response.
package excerpt

import (
	"strconv"
	"unicode/utf8"
)

// Max is the number of bytes of input Quote keeps.
const Max = 200

// Quote returns s as a Go-quoted string (strconv.Quote) when it has at most
// Max bytes; a longer s is cut at a character boundary after about Max
// bytes, quoted, and followed by an ellipsis and its full length, e.g.
// "abc…" (52428800 bytes).
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(Cut(s)) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Cut returns the first Max bytes of s or fewer, ending at a character
// boundary (s itself when it is short enough).
func Cut(s string) string {
	if len(s) <= Max {
		return s
	}
	end := Max
	for end > Max-utf8.UTFMax && end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}
