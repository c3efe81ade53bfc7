package rdfio

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestWriteContextCancelled: every syntax refuses to start with a
// cancelled context, and writes as Write does with a live one.
func TestWriteContextCancelled(t *testing.T) {
	d := rdf.NewDataset()
	d.Add(rdf.Quad{S: rdf.NewIRI("http://example.org/s"), P: rdf.NewIRI("http://example.org/p"), O: rdf.NewString("o")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range append(Writable(), "jsonld-compact") {
		var buf bytes.Buffer
		if err := WriteContext(ctx, &buf, d, string(f), WriteOptions{}); !errors.Is(err, context.Canceled) || buf.Len() != 0 {
			t.Errorf("%s: err = %v, %d bytes", f, err, buf.Len())
		}
		var a, b bytes.Buffer
		errA := Write(&a, d, string(f), WriteOptions{})
		errB := WriteContext(context.Background(), &b, d, string(f), WriteOptions{})
		if errA != nil || errB != nil || a.String() != b.String() {
			t.Errorf("%s: Write %v, WriteContext %v, outputs equal %v", f, errA, errB, a.String() == b.String())
		}
	}
}
