// Package yamlguard refuses YAML documents nested too deeply, before a
// YAML parser sees them.
//
// goccy/go-yaml (v1.19.2) enforces a nesting limit only after it has built
// its token and node lists, and its memory grows with the square of the
// depth on the way: 60 KB of "[" took 2.8 GB, 200 KB died at 6 GB. Check
// scans the bytes once with a small state machine that follows what adds a
// level of nesting — flow collections ("[", "{"), indentation of block
// collections, and compact sequence entries ("- - -") — while skipping what
// cannot (quoted scalars, comments, block scalar contents), and stops at
// the first position deeper than the limit. It is conservative: a "[" that
// starts a plain scalar counts, so a valid document may be refused, but
// only if it nests, or seems to, more than MaxDepth levels, which no
// experiment or criteria file needs.
package yamlguard

import (
	"fmt"

	"github.com/isolda/isolda/rdf/rdferr"
)

// MaxDepth is the deepest nesting Check accepts.
const MaxDepth = 64

// Check returns an *rdferr.ParseError wrapping rdferr.ErrLimit, with the
// line and column where data nests deeper than MaxDepth; file names the
// input in the error. It reads data once and allocates nothing but the
// error.
func Check(data []byte, file string) error {
	var indents [MaxDepth + 1]int // the block indentation levels open
	nIndents := 0
	flow := 0          // open flow collections
	quote := byte(0)   // '"' or '\'' inside a quoted scalar
	scalarIndent := -1 // >= 0: inside a block scalar of a line at this indent
	line := 1
	for start := 0; start < len(data); line++ {
		end := start
		for end < len(data) && data[end] != '\n' {
			end++
		}
		l := data[start:end]
		lineStart := start
		start = end + 1
		indent := 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		blank := indent == len(l) || l[indent] == '\r' || l[indent] == '#'
		if scalarIndent >= 0 {
			if blank || indent > scalarIndent {
				continue
			}
			scalarIndent = -1
		}
		if blank && quote == 0 {
			continue
		}
		i := indent
		if quote == 0 && flow == 0 {
			for nIndents > 0 && indents[nIndents-1] > indent {
				nIndents--
			}
			if nIndents == 0 || indents[nIndents-1] < indent {
				if nIndents == MaxDepth {
					return deep(file, line, indent, lineStart+indent)
				}
				indents[nIndents] = indent
				nIndents++
			}
			// Compact nested sequences: "- - - x".
			for i+1 < len(l) && l[i] == '-' && (l[i+1] == ' ' || l[i+1] == '\t') {
				i += 2
				for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
					i++
				}
				if nIndents+1 > MaxDepth {
					return deep(file, line, i, lineStart+i)
				}
				if nIndents == MaxDepth {
					break
				}
				indents[nIndents] = i
				nIndents++
			}
		}
		lastToken := -1 // start of the line's last token outside quotes
		for ; i < len(l); i++ {
			c := l[i]
			if quote != 0 {
				switch {
				case quote == '"' && c == '\\':
					i++
				case c == quote && quote == '\'' && i+1 < len(l) && l[i+1] == '\'':
					i++
				case c == quote:
					quote = 0
				}
				continue
			}
			if c == '#' && (i == 0 || isSpace(l[i-1])) {
				break // a comment
			}
			atToken := i == 0 || isSpace(l[i-1]) || l[i-1] == '[' || l[i-1] == '{' || l[i-1] == ','
			if atToken && !isSpace(c) {
				lastToken = i
			}
			switch {
			case (c == '"' || c == '\'') && atToken:
				quote = c
			case (c == '[' || c == '{') && (flow > 0 || i == 0 || isSpace(l[i-1])):
				flow++
				if nIndents+flow > MaxDepth {
					return deep(file, line, i, lineStart+i)
				}
			case (c == ']' || c == '}') && flow > 0:
				flow--
			}
		}
		if quote == 0 && flow == 0 && lastToken >= 0 && isBlockScalarHeader(l[lastToken:]) {
			scalarIndent = indent
		}
	}
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// isBlockScalarHeader reports whether tok (a line's last token, maybe
// followed by a comment or spaces) is "|" or ">" with chomping and
// indentation indicators.
func isBlockScalarHeader(tok []byte) bool {
	if len(tok) == 0 || (tok[0] != '|' && tok[0] != '>') {
		return false
	}
	for _, c := range tok[1:] {
		switch {
		case c == '+' || c == '-' || c >= '0' && c <= '9':
		case isSpace(c):
			return true
		default:
			return false
		}
	}
	return true
}

func deep(file string, line, col, off int) error {
	return &rdferr.ParseError{File: file, Line: line, Column: col + 1, Offset: int64(off),
		Msg: fmt.Sprintf("YAML nested deeper than %d levels", MaxDepth), Err: rdferr.ErrLimit}
}
