package baseline_test

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/isolda/isolda/formats/baseline"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/rdf"
)

// The label comments are the only difference between b-ttl-ids and b-ttl.
func TestIDsAreCommentsOnly(t *testing.T) {
	trailing := regexp.MustCompile(`(?m)  # [^\n]*$`)
	for seed := range uint64(30) {
		d := testgraph.Hostile(seed, seed%2 == 0)
		var ttl, ids bytes.Buffer
		if err := baseline.Encode(&ttl, d, baseline.TTL); err != nil {
			t.Fatal(err)
		}
		if err := baseline.Encode(&ids, d, baseline.TTLIDs); err != nil {
			t.Fatal(err)
		}
		if got := trailing.ReplaceAllString(ids.String(), ""); got != ttl.String() {
			t.Errorf("seed %d: b-ttl-ids without comments differs from b-ttl", seed)
		}
	}
}

// Each linked entity's line ends with its label; a label with a line break
// stays inside its comment.
func TestIDsComment(t *testing.T) {
	d := rdf.NewDataset()
	ex := "http://example.org/"
	alice, bob, carol := rdf.NewIRI(ex+"alice"), rdf.NewIRI(ex+"bob"), rdf.NewIRI(ex+"carol")
	knows, name := rdf.NewIRI("http://schema.org/knows"), rdf.NewIRI("http://schema.org/name")
	d.AddTriple(alice, knows, bob)
	d.AddTriple(alice, knows, carol)
	d.AddTriple(bob, name, rdf.NewString("Bob # the builder\nsecond line"))
	d.AddTriple(carol, name, rdf.NewLangString("Carol", "en"))
	d.AddTriple(carol, name, rdf.NewLangString("Carola", "de"))
	var buf bytes.Buffer
	if err := baseline.Encode(&buf, d, baseline.TTLIDs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		// ex: is used 3 times and has no well-known name: ns1 (SPEC 4.2).
		"@prefix ns1: <http://example.org/> .\n",
		"ns1:alice :knows ns1:bob ,  # Bob # the builder second line\n",
		"        ns1:carol .  # Carol\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	back, err := baseline.Decode(strings.NewReader(out), baseline.TTLIDs, rdf.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() != d.Len() {
		t.Errorf("decoded %d triples, want %d", back.Len(), d.Len())
	}
}

// b-json refuses a literal whose datatype JSON-LD would read back as a
// directional string; the Turtle baselines write it.
func TestJSONRefusesI18nDatatype(t *testing.T) {
	d := rdf.NewDataset()
	d.AddTriple(rdf.NewIRI("http://example.org/s"), rdf.NewIRI("http://example.org/p"),
		rdf.NewLiteral("x", "https://www.w3.org/ns/i18n#ar_rtl"))
	if err := baseline.Encode(&bytes.Buffer{}, d, baseline.JSON); err == nil {
		t.Error("b-json writes an i18n datatype")
	}
	if err := baseline.Encode(&bytes.Buffer{}, d, baseline.TTL); err != nil {
		t.Error(err)
	}
}

// Malformed input is an *rdf.ParseError with a position; limits apply.
func TestDecodeErrors(t *testing.T) {
	_, err := baseline.Decode(strings.NewReader("@prefix : <http://e/> .\n:a :b\n  :c :d .\n"), baseline.TTLIDs, rdf.ReadOptions{})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 {
		t.Errorf("b-ttl-ids: %v, want a ParseError on line 3", err)
	}
	_, err = baseline.Decode(strings.NewReader("{\n  \"@context\": {\"@vocab\": \"http://e/\"},\n  \"a\": [1,\n}"), baseline.JSON, rdf.ReadOptions{})
	if !errors.As(err, &pe) || pe.Line == 0 {
		t.Errorf("b-json: %v, want a ParseError with a line", err)
	}
	var big bytes.Buffer
	if err := baseline.Encode(&big, testgraph.Hostile(3, true), baseline.TTL); err != nil {
		t.Fatal(err)
	}
	for _, name := range baseline.Names() {
		_, err := baseline.Decode(bytes.NewReader(big.Bytes()), name, rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 100}})
		if !errors.Is(err, rdf.ErrLimit) {
			t.Errorf("%s: MaxBytes 100 gives %v, want ErrLimit", name, err)
		}
	}
	if _, err := baseline.Decode(strings.NewReader(""), "b-xml", rdf.ReadOptions{}); err == nil {
		t.Error("unknown format decodes")
	}
	if err := baseline.Encode(&big, rdf.NewDataset(), "b-xml"); err == nil {
		t.Error("unknown format encodes")
	}
}

// An invalid IRI kept from messy data is percent-encoded in the Turtle
// baselines, so the text still parses; b-json keeps it as it is.
func TestInvalidIRIs(t *testing.T) {
	d := rdf.NewDataset()
	d.AddTriple(rdf.NewIRI("http://x/a b"), rdf.NewIRI("http://x/p{q}"), rdf.NewIRI("http://x/<c>"))
	var buf bytes.Buffer
	if err := baseline.Encode(&buf, d, baseline.TTL); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<http://x/a%20b> <http://x/p%7Bq%7D> <http://x/%3Cc%3E> .") {
		t.Errorf("b-ttl:\n%s", buf.String())
	}
	if _, err := baseline.Decode(&buf, baseline.TTL, rdf.ReadOptions{}); err != nil {
		t.Error(err)
	}
	roundTrip(t, d, baseline.JSON)
}
