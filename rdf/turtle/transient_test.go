package turtle_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/turtle"
)

// events records what a sink receives, copying each string while it has
// it, as a sink of ReadOptions.Transient must.
type events struct{ list []string }

func (e *events) AddQuad(q rdf.Quad) error {
	e.list = append(e.list, q.String())
	return nil
}

func (e *events) AddPrefix(name, iri string) { e.list = append(e.list, "@prefix "+name+": "+iri) }

// transientSame checks that with ReadOptions.Transient a sink sees the
// same statements and prefixes while it has them, and the parser gives the
// same warnings and error, as without.
func transientSame(t *testing.T, data []byte, syntax turtle.Syntax, opts rdf.ReadOptions) {
	t.Helper()
	read := func(transient bool) ([]string, error) {
		var e events
		o := opts
		o.Transient = transient
		o.Warn = func(pe *rdf.ParseError) { e.list = append(e.list, "warning: "+pe.Error()) }
		err := turtle.Parse(bytes.NewReader(data), syntax, &e, o)
		return e.list, err
	}
	want, wantErr := read(false)
	got, gotErr := read(true)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("error with Transient: %v, without: %v", gotErr, wantErr)
	}
	if len(got) != len(want) {
		t.Fatalf("%d events with Transient, %d without", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d with Transient: %.200s\nwithout: %.200s", i, got[i], want[i])
		}
	}
}

// TestTransient checks ReadOptions.Transient on statements that outgrow an
// arena, terms longer than a quarter of one, prefixes and bases redefined
// between statements, escapes, relative IRIs, collections, annotations and
// TriG graphs.
func TestTransient(t *testing.T) {
	var b strings.Builder
	b.WriteString("@prefix : <http://x/> .\n@base <http://b/> .\n")
	for i := range 3000 {
		fmt.Fprintf(&b, ":s%d :p%d \"%s\"@en, <o%d>, \"\"\"%s\\u0041\"\"\" ; :q ( :a \"b\" [ :c 'd' ] ) .\n",
			i, i%5, strings.Repeat("v", i%97), i, strings.Repeat("w", i%13))
		if i%500 == 0 {
			fmt.Fprintf(&b, "@prefix : <http://x%d/> .\nBASE <http://b%d/>\n", i, i)
		}
	}
	// One statement with more text than several arenas, and long terms.
	b.WriteString(":big :p ")
	for i := range 4000 {
		fmt.Fprintf(&b, "\"%s%d\", ", strings.Repeat("z", 40), i)
	}
	fmt.Fprintf(&b, "\"%s\", <http://x/%s> .\n", strings.Repeat("L", 40000), strings.Repeat("I", 20000))
	b.WriteString(":s :p <http://x/a#b#c>, <http://x/\\u0020>, <rel#1>, :a\\#b .\n")
	b.WriteString(":s :p :o {| :r :v |} ; :p2 << :a :b \"c\" >> .\n")
	transientSame(t, []byte(b.String()), turtle.Turtle, rdf.ReadOptions{})

	trig := "@prefix : <http://x/> .\n:g { :s :p \"a\", \"b\" . :s2 :p :o } GRAPH <http://g/2> { :s :p \"c\" }\n{ :s :p \"d\" }\n"
	transientSame(t, []byte(trig), turtle.TriG, rdf.ReadOptions{})
}
