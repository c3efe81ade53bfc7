package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf/rdfio"
)

var updateOpenAPI = flag.Bool("update", false, "rewrite openapi.json's paths and syntax list from the route and syntax tables")

// TestOpenAPITables checks that openapi.json is, byte for byte, what the
// route table (its paths) and rdfio's syntax table (the syntaxes a Graph
// is read in) make of it; with -update it rewrites the file so.
func TestOpenAPITables(t *testing.T) {
	doc, err := decodeOrdered(openAPI)
	if err != nil {
		t.Fatal(err)
	}
	paths := &object{}
	for _, e := range endpoints() {
		if e.Hidden {
			continue
		}
		op, err := operation(e)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		paths.set(e.Path, &object{keys: []string{strings.ToLower(e.Method)}, vals: []any{op}})
	}
	if !doc.set("paths", paths) {
		t.Fatal("openapi.json has no paths")
	}
	format, _ := doc.at("components", "schemas", "Graph", "properties", "format")
	if format == nil || !format.set("description", "Its RDF syntax: "+strings.Join(rdfio.ReadableNames(), ", ")+
		" (or long names); empty means sniffed.") {
		t.Fatal("openapi.json has no description of components.schemas.Graph.properties.format")
	}
	var b bytes.Buffer
	if err := writeOrdered(&b, doc); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	if bytes.Equal(out.Bytes(), openAPI) {
		return
	}
	if *updateOpenAPI {
		if err := os.WriteFile("openapi.json", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("openapi.json rewritten from the route and syntax tables")
		return
	}
	got, want := strings.Split(string(openAPI), "\n"), strings.Split(out.String(), "\n")
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("openapi.json differs from the route and syntax tables at line %d:\n got  %s\n want %s\n(go test ./server -run TestOpenAPITables -update rewrites it)", i+1, got[i], want[i])
		}
	}
	t.Fatalf("openapi.json has %d lines, the tables make %d (go test ./server -run TestOpenAPITables -update rewrites it)", len(got), len(want))
}

// apiErrors are the error answers of every endpoint with Work, by status
// code: the names of components.responses.
var apiErrors = []struct{ code, name string }{
	{"400", "BadRequest"}, {"403", "Forbidden"}, {"408", "SlowBody"}, {"413", "TooLarge"},
	{"415", "UnsupportedMediaType"}, {"422", "Unprocessable"}, {"429", "Busy"}, {"500", "Internal"},
	{"502", "BadGateway"}, {"503", "Timeout"}, {"504", "GatewayTimeout"},
}

// operation returns the OpenAPI operation of an endpoint.
func operation(e endpoint) (*object, error) {
	ref := func(kind, name string) *object {
		return &object{keys: []string{"$ref"}, vals: []any{"#/components/" + kind + "/" + name}}
	}
	content := func(mediaType string, schema any) *object {
		return &object{keys: []string{mediaType}, vals: []any{&object{keys: []string{"schema"}, vals: []any{schema}}}}
	}
	answer := func(description string, c *object) *object {
		return &object{keys: []string{"description", "content"}, vals: []any{description, c}}
	}
	op := &object{}
	op.set("operationId", e.Name)
	op.set("summary", e.Summary)
	responses := &object{}
	if e.Work != nil {
		op.set("requestBody", &object{keys: []string{"required", "content"},
			vals: []any{true, content("application/json", ref("schemas", e.Request))}})
		responses.set("200", answer("Success", content("application/json", ref("schemas", e.Response))))
		for _, r := range apiErrors {
			responses.set(r.code, ref("responses", r.name))
		}
	} else {
		schema, err := decodeOrdered([]byte(e.Schema))
		if err != nil {
			return nil, fmt.Errorf("schema: %v", err)
		}
		responses.set("200", answer(e.Answer, content(e.MediaType, schema)))
	}
	op.set("responses", responses)
	return op, nil
}

// object is a JSON object that keeps the order of its members; its
// values are *object, []any, string, bool, nil or json.Number.
type object struct {
	keys []string
	vals []any
}

// set sets the member key, added last when new; it reports whether key
// was there.
func (o *object) set(key string, v any) bool {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = v
			return true
		}
	}
	o.keys, o.vals = append(o.keys, key), append(o.vals, v)
	return false
}

// at returns the object at a path of member names.
func (o *object) at(path ...string) (*object, bool) {
	for _, key := range path {
		var next *object
		for i, k := range o.keys {
			if k == key {
				next, _ = o.vals[i].(*object)
			}
		}
		if next == nil {
			return nil, false
		}
		o = next
	}
	return o, true
}

// decodeOrdered decodes a JSON object keeping the order of the members
// of its objects.
func decodeOrdered(b []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the value")
	}
	o, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(k.(string), v)
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

// writeOrdered writes v as compact JSON, HTML characters unescaped.
func writeOrdered(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeOrdered(b, k); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := writeOrdered(b, v.vals[i]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeOrdered(b, x); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
	}
	return nil
}
