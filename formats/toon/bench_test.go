package toon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// benchValue builds a deterministic document of about 1 MB as compact JSON,
// mixing the shapes TOON distinguishes: a large table with a nested field
// group, a keyed object, non-uniform list items, nested objects and inline
// arrays.
func benchValue() Value {
	r := rand.New(rand.NewPCG(7, 11))
	words := []string{"alpha", "beta", "gamma", "delta", "Ada Lovelace", "x,y", "a:b", "naïve café", "-dash", "42", "true", ""}
	users := make([]any, 0, 7000)
	for i := range 7000 {
		u := NewObject(6)
		u.Set("id", i)
		u.Set("name", fmt.Sprintf("user%05d", i))
		u.Set("score", float64(r.IntN(100000))/100)
		u.Set("active", r.IntN(2) == 0)
		addr := NewObject(2)
		addr.Set("city", words[r.IntN(len(words))])
		addr.Set("zip", fmt.Sprintf("%05d", r.IntN(100000)))
		u.Set("address", addr)
		u.Set("note", words[r.IntN(len(words))])
		users = append(users, u)
	}
	servers := NewObject(900)
	for i := range 900 {
		s := NewObject(3)
		s.Set("host", fmt.Sprintf("h%d.example.org", i))
		s.Set("port", 8000+i)
		s.Set("weight", r.Float64())
		servers.Set(fmt.Sprintf("srv%d", i), s)
	}
	events := make([]any, 0, 3500)
	for i := range 3500 {
		e := NewObject(4)
		e.Set("kind", words[i%len(words)])
		e.Set("at", int64(1700000000+i*37))
		if i%3 == 0 {
			e.Set("tags", []any{"a", "b", words[r.IntN(len(words))]})
		}
		if i%5 == 0 {
			meta := NewObject(2)
			meta.Set("depth", i%7)
			meta.Set("path", []any{[]any{1, 2}, []any{"x"}})
			e.Set("meta", meta)
		}
		events = append(events, e)
	}
	root := NewObject(4)
	root.Set("users", users)
	root.Set("servers", servers)
	root.Set("events", events)
	root.Set("matrix", []any{[]any{1.5, 2, 3}, []any{}, []any{"q"}})
	return root
}

func benchInputs(b *testing.B) (Value, []byte, []byte) {
	v := benchValue()
	js, err := ToJSON(v)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := Marshal(v, EncodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return v, js, doc
}

// BenchmarkEncode encodes the ~1 MB (as JSON) document; throughput is per
// JSON byte.
func BenchmarkEncode(b *testing.B) {
	v, js, doc := benchInputs(b)
	b.ReportMetric(float64(len(doc)), "toon-bytes")
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Encode(io.Discard, v, EncodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode decodes the TOON form of the same document; throughput is
// per TOON byte.
func BenchmarkDecode(b *testing.B) {
	_, _, doc := benchInputs(b)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(doc), DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromJSON parses the JSON form (ordered, lossless numbers).
func BenchmarkFromJSON(b *testing.B) {
	_, js, _ := benchInputs(b)
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromJSON(js); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStdlibJSONDecode is encoding/json decoding the same JSON into
// any, for scale.
func BenchmarkStdlibJSONDecode(b *testing.B) {
	_, js, _ := benchInputs(b)
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(js, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchDocumentRoundTrip checks the benchmark document survives the
// round trip, and that it is about 1 MB.
func TestBenchDocumentRoundTrip(t *testing.T) {
	v := benchValue()
	js, _ := ToJSON(v)
	if len(js) < 900<<10 || len(js) > 1400<<10 {
		t.Errorf("benchmark JSON is %d bytes, want about 1 MB", len(js))
	}
	doc, err := Marshal(v, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(doc, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := FromJSON(js)
	if !unorderedEqual(got, want) {
		t.Error("benchmark document does not round-trip")
	}
	t.Logf("benchmark document: %d bytes JSON, %d bytes TOON", len(js), len(doc))
}
