package kgllmbench

import (
	"bufio"

	"github.com/isolda/isolda/internal/py"
)

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
		py.WriteJSONString(w, h, true)
		w.WriteString(": {")
		rm := s.rels[h]
		for j, r := range rm.keys {
			if j > 0 {
				w.WriteByte(',')
			}
			writeNewlineIndent(w, 2)
			py.WriteJSONString(w, r, true)
			w.WriteString(": [")
			for k, t := range rm.tails[r] {
				if k > 0 {
					w.WriteByte(',')
				}
				writeNewlineIndent(w, 3)
				py.WriteJSONString(w, t, true)
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
