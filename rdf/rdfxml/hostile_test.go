package rdfxml

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/isolda/isolda/rdf"
)

// TestEntityReplacementTextReparsed: a reference to an internal entity is
// replaced by the entity's replacement text parsed again, as XML 1.0
// (section 4.5 and appendix D) says; the expected values are the ones XML
// gives (the first is the specification's own way to declare "&").
func TestEntityReplacementTextReparsed(t *testing.T) {
	for _, c := range []struct{ decl, want string }{
		{`<!ENTITY a "&#38;#38;">`, "&"},
		{`<!ENTITY a "x &amp; y">`, "x & y"},
		{`<!ENTITY a "&#38;amp;">`, "&"},
		{`<!ENTITY a "&#38;#60;b/>">`, "<b/>"},
		{`<!ENTITY b "B"><!ENTITY a "&#38;b;&b;">`, "BB"},
		{`<!ENTITY a "caf&#233;">`, "café"},
	} {
		doc := `<!DOCTYPE r [` + c.decl + `]>` + head + `<ex:T rdf:about="http://example.org/s" ex:q="&a;"><ex:p>&a;</ex:p></ex:T></rdf:RDF>`
		got, err := parseString(t, doc, rdf.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", c.decl, err)
			continue
		}
		lit := rdf.QuoteLiteral(c.want)
		want := mustNT(t, `<http://example.org/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://example.org/ns#T> .
<http://example.org/s> <http://example.org/ns#p> `+lit+` .
<http://example.org/s> <http://example.org/ns#q> `+lit+` .
`)
		assertIsomorphic(t, got, want)
	}
	// Markup in a replacement text would be elements; the decoder takes
	// expansions as text, so such an entity is refused.
	doc := `<!DOCTYPE r [<!ENTITY a "&#60;b/>">]>` + head + `<ex:T><ex:p>&a;</ex:p></ex:T></rdf:RDF>`
	if _, err := parseString(t, doc, rdf.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "markup") {
		t.Errorf("markup in a replacement text: err = %v", err)
	}
	// A lone "&" in a replacement text is not well formed.
	doc = `<!DOCTYPE r [<!ENTITY a "&#38;">]>` + head + `<ex:T><ex:p>&a;</ex:p></ex:T></rdf:RDF>`
	if _, err := parseString(t, doc, rdf.ReadOptions{}); err == nil {
		t.Error("a lone & in a replacement text was accepted")
	}
}

// TestErrorsQuoteLittleInput: errors and warnings about a huge term quote a
// few hundred bytes of it, not all of it (a 50 MB term put 52 MB on
// standard error).
func TestErrorsQuoteLittleInput(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	var warnings []*rdf.ParseError
	opts := rdf.ReadOptions{Warn: func(pe *rdf.ParseError) { warnings = append(warnings, pe) }}
	_, err := parseString(t, head+`<rdf:Description rdf:nodeID="1`+big+`"><ex:p>v</ex:p></rdf:Description></rdf:RDF>`, opts)
	if err == nil || len(err.Error()) > 2048 || !strings.Contains(err.Error(), "rdf:nodeID") {
		t.Errorf("error of %d bytes: %.300v", len(errString(err)), err)
	}
	_, err = parseString(t, head+`<rdf:Description rdf:about="http://x/ `+big+`"><ex:p>v</ex:p></rdf:Description></rdf:RDF>`, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 {
		t.Fatal("no warning about the IRI with a space")
	}
	for _, w := range warnings {
		if len(w.Error()) > 2048 {
			t.Errorf("warning of %d bytes: %.300s", len(w.Error()), w)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestLimitErrorsAreErrLimit: every limit of the reader is reported with
// an error that wraps rdf.ErrLimit and has a position.
func TestLimitErrorsAreErrLimit(t *testing.T) {
	doc := head + `<ex:T><ex:p>` + strings.Repeat("y", 5000) + `</ex:p></ex:T></rdf:RDF>`
	_, err := parseString(t, doc, rdf.ReadOptions{Limits: rdf.Limits{MaxBytes: 1000}})
	var pe *rdf.ParseError
	if !errors.Is(err, rdf.ErrLimit) || !errors.As(err, &pe) || pe.Line < 1 {
		t.Errorf("byte limit: %v", err)
	}
	if !errors.Is(errByteLimit, rdf.ErrLimit) {
		t.Error("the reader's limit error does not wrap rdf.ErrLimit")
	}
	// Entities: too many declarations, and one that expands too far.
	var b strings.Builder
	b.WriteString(`<!DOCTYPE r [`)
	for i := range maxEntities + 1 {
		b.WriteString(`<!ENTITY e` + strconv.Itoa(i) + ` "v">`)
	}
	b.WriteString(`]>` + head + `</rdf:RDF>`)
	if _, err := parseString(t, b.String(), rdf.ReadOptions{}); !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("entity declarations: %v", err)
	}
	doc = `<!DOCTYPE r [<!ENTITY a "` + strings.Repeat("&#38;#120;", maxEntityValue/4) + `">]>` + head + `<ex:T ex:p="&a;"/></rdf:RDF>`
	if _, err := parseString(t, doc, rdf.ReadOptions{}); !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("entity value: %v", err)
	}
}
