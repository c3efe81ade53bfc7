package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf/rdfio"
)

// TestEncodeOptionsByName checks that the options, in any of their
// spellings, reach the encoder as the CLI's flags do: the output equals
// isolda.Encode with the same Options (the node tests compare with the
// CLI itself).
func TestEncodeOptionsByName(t *testing.T) {
	data, err := examples.Read(examples.Default)
	if err != nil {
		t.Fatal(err)
	}
	d, err := rdfio.Read(bytes.NewReader(data), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		t.Fatal(err)
	}
	a := newAPI()
	for _, c := range []struct {
		json string
		opts isolda.Options
	}{
		{`{}`, isolda.Options{}},
		{`{"spec":"0.2","noTypes":true}`, isolda.Options{Version: "0.2", NoTypes: true}},
		{`{"layout":"blocks","no-constants":true,"inline_bnodes":true}`, isolda.Options{Layout: "blocks", NoConstants: true, InlineBlanks: true}},
		{`{"glossary":"none","ids":"slug","iriIds":true,"theta":null}`, isolda.Options{Glossary: "none", IDs: "slug", IRIIDs: true}},
	} {
		var want bytes.Buffer
		if err := isolda.Encode(&want, d, c.opts); err != nil {
			t.Fatal(err)
		}
		r := a.call("encode", data, c.json)
		if r.Err != nil {
			t.Fatalf("%s: %v", c.json, r.Err)
		}
		if r.Text != want.String() {
			t.Errorf("%s: the output differs from isolda.Encode with %+v", c.json, c.opts)
		}
	}
}

// TestErrors checks that a bad input gives its position and that bad
// options are refused by name.
func TestErrors(t *testing.T) {
	a := newAPI()
	r := a.call("encode", []byte("<urn:a> <urn:b> <urn:c> .\n<urn:a> <urn:b> .\n"), `{"format":"nt","file":"g.nt"}`)
	if r.Err == nil || r.File != "g.nt" || r.Line != 2 || r.Column == 0 || !strings.HasPrefix(r.Err.Error(), "g.nt:2:") {
		t.Errorf("bad N-Triples: got %+v", r)
	}
	r = a.call("decode", []byte("@isolda 0.4\n\nPerson[2]{name\n"), `{}`)
	if r.Err == nil || r.Line != 3 {
		t.Errorf("bad ISOLDA: got %+v", r)
	}
	for _, c := range []struct{ op, opts, want string }{
		{"encode", `{"bogus":1}`, "unknown option bogus"},
		{"encode", `{"noTypes":true,"no-types":false}`, "given twice"},
		{"encode", `{"hops":"two"}`, "hops: want an integer"},
		{"encode", `{"budget":-1}`, "budget -1"},
		{"encode", `[1]`, "want an object"},
		{"decode", `{"to":"nope"}`, `unknown format "nope"`},
		{"convert", `{}`, "to is required"},
		{"countTokens", `{"tokenizer":"nope"}`, "unknown tokenizer"},
		{"nope", `{}`, "unknown operation"},
	} {
		r := a.call(c.op, []byte("<urn:a> <urn:b> <urn:c> .\n"), c.opts)
		if r.Err == nil || !strings.Contains(r.Err.Error(), c.want) {
			t.Errorf("%s %s: got %v, want an error with %q", c.op, c.opts, r.Err, c.want)
		}
	}
}

// TestBudget checks that a budget cuts the document within it, and that
// the cut document still decodes.
func TestBudget(t *testing.T) {
	data, err := examples.Read("lod-datagovuk-reference-intervals.ttl")
	if err != nil {
		t.Fatal(err)
	}
	a := newAPI()
	full := a.call("encode", data, `{}`)
	tok, err := a.reg.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	n := tok.Count(full.Text)
	for _, budget := range []int{n / 4, n / 2, n} {
		r := a.call("encode", data, fmt.Sprintf(`{"budget":%d}`, budget))
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if got := tok.Count(r.Text); got > budget {
			t.Errorf("budget %d: %d tokens", budget, got)
		}
		if budget == n && r.Text != full.Text {
			t.Errorf("budget %d (the whole document's): the document was cut", budget)
		}
		if _, err := isolda.DecodeWith(strings.NewReader(r.Text), isolda.DecodeOptions{}); err != nil {
			t.Errorf("budget %d: the cut document does not decode: %v", budget, err)
		}
	}
}
