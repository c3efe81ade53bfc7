package kgllmbench

import (
	"bufio"

	"github.com/isolda/isolda/internal/py"
)

// writeStructuredJSON is json.dumps(structured_data, indent=2): keys in
// insertion order, ensure_ascii=True, no final newline.
func writeStructuredJSON(w *bufio.Writer, kg *KG) error {
	s, err := buildStructured(kg)
	if err != nil {
		return err
	}
	d := py.NewDumper(w, 2, true)
	d.OpenObject()
	for _, h := range s.heads {
		d.Key(h)
		d.OpenObject()
		rm := s.rels[h]
		for _, r := range rm.keys {
			d.Key(r)
			d.OpenArray()
			for _, t := range rm.tails[r] {
				d.String(t)
			}
			d.Close()
		}
		d.Close()
	}
	d.Close()
	return d.Err()
}
