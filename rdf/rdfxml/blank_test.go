package rdfxml

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// spaceReader yields n bytes of c without holding them.
type spaceReader struct {
	n int
	c byte
}

func (r *spaceReader) Read(b []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(b), r.n)
	for i := range k {
		b[i] = r.c
	}
	r.n -= k
	return k, nil
}

// TestLongBlanksAndComments: 16 MiB runs of white space between elements
// and 16 MiB comments (between elements, inside a property element) are
// read without being buffered (encoding/xml holds a token whole: before,
// these 64 MiB allocated 96 MiB), and the triples, the
// white space of a literal and the positions of an error after them are
// those of the document.
func TestLongBlanksAndComments(t *testing.T) {
	const n = 16 << 20
	doc := func(tail string) io.Reader {
		return io.MultiReader(
			strings.NewReader(head+"<rdf:Description rdf:about=\"http://example.org/s\">"),
			&spaceReader{n: n, c: '\n'},
			strings.NewReader("<ex:p>  a  b  </ex:p><ex:q><!-- x-y"),
			&spaceReader{n: n, c: 'c'},
			strings.NewReader("- --></ex:q></rdf:Description>\t\t"),
			strings.NewReader("<!--"), &spaceReader{n: n, c: 0xE9}, strings.NewReader("-->"),
			&spaceReader{n: n, c: ' '},
			strings.NewReader(tail))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	d := rdf.NewDataset()
	err := Parse(doc("</rdf:RDF>"), d, rdf.ReadOptions{})
	runtime.ReadMemStats(&after)
	// The 0xE9 bytes are not UTF-8: a comment's text is not checked, as
	// encoding/xml does not check it either.
	if err != nil {
		t.Fatal(err)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("64 MiB of blanks and comments: %.2f MiB allocated", float64(alloc)/(1<<20))
	if alloc > 4<<20 {
		t.Errorf("64 MiB of blanks and comments allocated %d MiB", alloc>>20)
	}
	assertIsomorphic(t, d, mustNT(t, `<http://example.org/s> <http://example.org/ns#p> "  a  b  " .
<http://example.org/s> <http://example.org/ns#q> "" .
`))
	err = Parse(doc("x</rdf:RDF>"), rdf.NewDataset(), rdf.ReadOptions{})
	pe, ok := err.(*rdf.ParseError)
	if !ok || pe.Line != n+1 || !strings.Contains(pe.Msg, "text") {
		t.Errorf("text after the blanks: %v (%T), want an error on line %d", err, err, n+1)
	}
}
