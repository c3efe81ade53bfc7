package jsonld

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/rdf"
)

func BenchmarkParseHTMLExample(b *testing.B) {
	data := shared.ReadFile(b, "data", "examples", "html-schemaorg-songkick-years-and-years-tour-events.html")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := ParseHTML(bytes.NewReader(data), rdf.NewDataset(), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// bigDoc is a JSON-LD document of n nodes with 5 properties each.
func bigDoc(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"@context": {"@vocab": "http://example.org/", "knows": {"@type": "@id"}}, "@graph": [`)
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"@id": "http://example.org/n%d", "@type": "Thing", "name": "node %d", "rank": %d, "knows": "http://example.org/n%d", "tags": ["a", "b"]}`, i, i, i, (i+1)%n)
	}
	sb.WriteString("]}")
	return []byte(sb.String())
}

func BenchmarkParse10kNodes(b *testing.B) {
	data := bigDoc(10000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := Parse(bytes.NewReader(data), rdf.NewDataset(), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite10kNodes(b *testing.B) {
	d := rdf.NewDataset()
	if err := Parse(bytes.NewReader(bigDoc(10000)), d, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		var buf bytes.Buffer
		if err := Write(&buf, d, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteManyValues writes 32,000 literal values of one property of
// one subject, expanded and compacted (json-gold's from-RDF conversion was
// quadratic in them).
func BenchmarkWriteManyValues(b *testing.B) {
	d := rdf.NewDataset()
	s, p := rdf.NewIRI("http://example.org/s"), rdf.NewIRI("http://example.org/p")
	for i := range 32000 {
		d.Add(rdf.Quad{S: s, P: p, O: rdf.NewString(fmt.Sprint("v", i))})
	}
	for _, form := range []Form{Expanded, Compacted} {
		b.Run(form.String(), func(b *testing.B) {
			for b.Loop() {
				if err := Write(io.Discard, d, WriteOptions{Form: form}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
