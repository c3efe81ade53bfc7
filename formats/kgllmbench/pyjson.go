package kgllmbench

import (
	"bufio"
	"unicode/utf8"
)

const lowerHex = "0123456789abcdef"

// writePyJSONString writes s as Python's json.dumps encodes a str. With
// ensureASCII every character outside ' '..'~' is escaped as \uXXXX
// (surrogate pairs above U+FFFF); without it only '"', '\\' and control
// characters below U+0020 are escaped. Invalid UTF-8 is written as U+FFFD.
func writePyJSONString(w *bufio.Writer, s string, ensureASCII bool) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (c != 0x7f || !ensureASCII) {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch c {
			case '"':
				w.WriteString(`\"`)
			case '\\':
				w.WriteString(`\\`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			default:
				writeU4(w, rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !ensureASCII && r != utf8.RuneError {
			i += size
			continue
		}
		w.WriteString(s[start:i])
		switch {
		case !ensureASCII:
			w.WriteString("\uFFFD")
		case r > 0xFFFF:
			r -= 0x10000
			writeU4(w, 0xD800+(r>>10))
			writeU4(w, 0xDC00+(r&0x3FF))
		default:
			writeU4(w, r)
		}
		i += size
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

func writeU4(w *bufio.Writer, r rune) {
	w.WriteString(`\u`)
	w.WriteByte(lowerHex[(r>>12)&15])
	w.WriteByte(lowerHex[(r>>8)&15])
	w.WriteByte(lowerHex[(r>>4)&15])
	w.WriteByte(lowerHex[r&15])
}

func writeNewlineIndent(w *bufio.Writer, level int) {
	w.WriteByte('\n')
	for range level {
		w.WriteString("  ")
	}
}

// writeStructuredJSON is json.dumps(structured_data, indent=2): keys in
// insertion order, ensure_ascii=True, no final newline.
func writeStructuredJSON(w *bufio.Writer, kg *KG) error {
	s, err := buildStructured(kg)
	if err != nil {
		return err
	}
	if len(s.heads) == 0 {
		_, err := w.WriteString("{}")
		return err
	}
	w.WriteByte('{')
	for i, h := range s.heads {
		if i > 0 {
			w.WriteByte(',')
		}
		writeNewlineIndent(w, 1)
		writePyJSONString(w, h, true)
		w.WriteString(": {")
		rm := s.rels[h]
		for j, r := range rm.keys {
			if j > 0 {
				w.WriteByte(',')
			}
			writeNewlineIndent(w, 2)
			writePyJSONString(w, r, true)
			w.WriteString(": [")
			for k, t := range rm.tails[r] {
				if k > 0 {
					w.WriteByte(',')
				}
				writeNewlineIndent(w, 3)
				writePyJSONString(w, t, true)
			}
			writeNewlineIndent(w, 2)
			w.WriteByte(']')
		}
		writeNewlineIndent(w, 1)
		w.WriteByte('}')
	}
	writeNewlineIndent(w, 0)
	_, err = w.WriteString("}")
	return err
}
