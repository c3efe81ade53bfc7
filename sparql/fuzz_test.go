package sparql

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// answer is a RoundTripper that answers every request with a fixed status,
// media type and body, without a network.
type answer struct {
	status int
	ctype  string
	body   string
}

func (a answer) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: a.status, Header: http.Header{"Content-Type": {a.ctype}},
		Body: io.NopCloser(strings.NewReader(a.body)), Request: r}, nil
}

// FuzzConstruct sends hostile queries and answers through the client: it
// must return a graph or an error, never panic or hang, and never return
// more quads than allowed.
func FuzzConstruct(f *testing.F) {
	f.Add("CONSTRUCT WHERE { ?s ?p ?o }", 200, "text/turtle", "@prefix : <http://e/> . :a :b :c .")
	f.Add("PREFIX x: <y> DESCRIBE <z>", 200, "application/ld+json", `{"@id":"http://a","http://b":"c"}`)
	f.Add("construct {}", 500, "text/plain", "\xff\xfe error")
	f.Add("# c\nBASE <x> CONSTRUCT", 200, "application/rdf+xml", `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>`)
	f.Add("DESCRIBE <a>", 200, "application/n-triples", "<http://a> <http://b> \"c\" .\n")
	f.Fuzz(func(t *testing.T, query string, status int, ctype, body string) {
		status = 100 + (status%500+500)%500 // a status from 100 to 599
		c := &Client{HTTP: &http.Client{Transport: answer{status: status, ctype: ctype, body: body}},
			MaxBytes: 1 << 16, MaxQuads: 100}
		d, err := c.Construct(context.Background(), "http://endpoint.test/sparql", query)
		if err == nil && d.Len() > 100 {
			t.Fatalf("%d quads over the limit", d.Len())
		}
		if form, err := QueryForm(query); err == nil && form != "CONSTRUCT" && form != "DESCRIBE" {
			t.Fatalf("form %q", form)
		}
	})
}
