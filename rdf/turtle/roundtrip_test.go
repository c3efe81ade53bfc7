package turtle_test

import (
	"bytes"
	"fmt"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/canon"
	"github.com/isolda/isolda/rdf/turtle"
)

// roundTrip writes d, parses the output back and checks isomorphism; it
// returns "" on success, else what went wrong.
func roundTrip(d *rdf.Dataset, syntax turtle.Syntax) string {
	var buf bytes.Buffer
	if err := turtle.Write(&buf, d, syntax, turtle.WriteOptions{}); err != nil {
		return "write: " + err.Error()
	}
	return reparse(buf.Bytes(), syntax, "written", d)
}

// reparse parses text, written by file, back and compares it with want;
// "" means isomorphic, else it says what went wrong.
func reparse(text []byte, syntax turtle.Syntax, file string, want *rdf.Dataset) string {
	back := rdf.NewDataset()
	if err := turtle.Parse(bytes.NewReader(text), syntax, back, rdf.ReadOptions{File: file}); err != nil {
		return fmt.Sprintf("re-parse: %v\n%s", err, text)
	}
	ok, err := canon.Isomorphic(want, back)
	if err != nil {
		return "isomorphism: " + err.Error()
	}
	if !ok {
		return fmt.Sprintf("re-parsed output is not isomorphic (%d quads, want %d):\n%s", back.Len(), want.Len(), text)
	}
	return ""
}
