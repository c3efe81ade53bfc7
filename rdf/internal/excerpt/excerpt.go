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
func Cut(s string) string { return cutAt(s, Max) }

// cutAt returns the first n bytes of s or fewer, ending at a character
// boundary.
func cutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n
	for end > n-utf8.UTFMax && end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}

// MaxMessage is the length in bytes beyond which Shorten cuts a message.
const MaxMessage = 1 << 10

// Shorten returns msg when it has at most MaxMessage bytes; a longer
// message (one that quotes a huge piece of input) keeps its first and last
// few hundred bytes around "…[N bytes]…", cut at character boundaries, so
// that both what was wrong and the start of the input at fault remain.
func Shorten(msg string) string {
	if len(msg) <= MaxMessage {
		return msg
	}
	head := cutAt(msg, 2*Max)
	tail := msg[len(msg)-Max:]
	for i := 0; i < utf8.UTFMax && i < len(tail) && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	return head + "…[" + strconv.Itoa(len(msg)-len(head)-len(tail)) + " bytes]…" + tail
}
