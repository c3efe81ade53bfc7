package jsonld

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/isolda/isolda/rdf"
)

const contextDoc = `{"@context": {"name": "http://schema.org/name"}}`

// parseDoc reads a JSON-LD document with opts.
func parseDoc(doc string, opts Options) (*rdf.Dataset, error) {
	d := rdf.NewDataset()
	err := Parse(strings.NewReader(doc), d, opts)
	return d, err
}

// TestRemoteContextGuards runs two loopback servers: contexts are fetched
// only with AllowRemote, redirects to another host (here, another port)
// are refused, redirects on the same host followed, and a context over the
// size cap is refused with a limit error.
func TestRemoteContextGuards(t *testing.T) {
	var hitsB atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hitsB.Add(1)
		fmt.Fprint(w, contextDoc)
	}))
	defer other.Close()
	var hitsA atomic.Int32
	var self *httptest.Server
	self = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hitsA.Add(1)
		switch r.URL.Path {
		case "/ctx":
			fmt.Fprint(w, contextDoc)
		case "/same":
			http.Redirect(w, r, self.URL+"/ctx", http.StatusFound)
		case "/away":
			http.Redirect(w, r, other.URL+"/ctx", http.StatusFound)
		case "/big":
			fmt.Fprint(w, `{"@context": {"name": "http://schema.org/name", "pad": "`)
			fmt.Fprint(w, strings.Repeat("x", maxRemoteContextBytes))
			fmt.Fprint(w, `"}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer self.Close()
	doc := func(path string) string {
		return `{"@context": "` + self.URL + path + `", "@id": "http://example.org/a", "name": "A"}`
	}
	// Offline by default: no request at all.
	if _, err := parseDoc(doc("/ctx"), Options{}); err == nil || !strings.Contains(err.Error(), "not available offline") {
		t.Errorf("offline: err = %v", err)
	}
	if hitsA.Load() != 0 {
		t.Errorf("offline reading made %d requests", hitsA.Load())
	}
	remote := Options{AllowRemote: true}
	for _, path := range []string{"/ctx", "/same"} {
		d, err := parseDoc(doc(path), remote)
		if err != nil || d.Len() != 1 {
			t.Errorf("%s: %d quads, %v", path, d.Len(), err)
		}
	}
	if _, err := parseDoc(doc("/away"), remote); err == nil || !strings.Contains(err.Error(), "another host") {
		t.Errorf("redirect to another host: err = %v", err)
	}
	if hitsB.Load() != 0 {
		t.Errorf("the other host got %d requests", hitsB.Load())
	}
	_, err := parseDoc(doc("/big"), remote)
	if !errors.Is(err, rdf.ErrLimit) {
		t.Errorf("context over %d bytes: err = %v", maxRemoteContextBytes, err)
	}
	if err != nil && len(err.Error()) > 2048 {
		t.Errorf("error of %d bytes", len(err.Error()))
	}
}

// TestRelativeContextNeverReadsAFile: with a base that is a file path, a
// relative @context resolves to a path; remote loading fetches only http
// and https URLs, so the file is not read (it was, through json-gold's
// loader).
func TestRelativeContextNeverReadsAFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ctx.jsonld"), []byte(contextDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := `{"@context": "ctx.jsonld", "@id": "http://example.org/a", "name": "A"}`
	for _, base := range []string{dir + "/", "file://" + dir + "/"} {
		d, err := parseDoc(doc, Options{ReadOptions: rdf.ReadOptions{Base: base}, AllowRemote: true})
		if err == nil {
			t.Errorf("base %s: the local context was read (%d quads)", base, d.Len())
		}
	}
}

// TestInvalidUTF8: a byte that is not UTF-8 is an error at its position
// (encoding/json turned it into U+FFFD silently), in a document and in a
// script of an HTML page.
func TestInvalidUTF8(t *testing.T) {
	doc := "{\"@id\": \"http://example.org/a\",\n \"http://example.org/p\": \"ab\xffc\"}"
	_, err := parseDoc(doc, Options{})
	var pe *rdf.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != 29 || !strings.Contains(pe.Msg, "invalid UTF-8") {
		t.Errorf("err = %v", err)
	}
	page := "<html><body>\n<script type=\"application/ld+json\">" + doc + "</script></body></html>"
	err = ParseHTML(strings.NewReader(page), rdf.NewDataset(), Options{})
	if !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(err.Error(), "invalid UTF-8") {
		t.Errorf("HTML: err = %v", err)
	}
}

// TestErrorsQuoteLittleInput: warnings and errors about huge terms quote a
// few hundred bytes of them (a 50 MB term put 52 MB on standard error).
func TestErrorsQuoteLittleInput(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	var warnings []*rdf.ParseError
	opts := Options{ReadOptions: rdf.ReadOptions{Warn: func(pe *rdf.ParseError) { warnings = append(warnings, pe) }}}
	if _, err := parseDoc(`{"@id": "http://x/ `+big+`", "http://example.org/p": "v"}`, opts); err != nil {
		t.Fatal(err)
	}
	if _, err := parseDoc(`{"http://example.org/p": {"@value": "v", "@language": "`+big+`"}}`, opts); err != nil {
		t.Fatal(err)
	}
	if len(warnings) < 2 {
		t.Fatalf("%d warnings, want 2", len(warnings))
	}
	for _, w := range warnings {
		if len(w.Error()) > 2048 {
			t.Errorf("warning of %d bytes: %.200s", len(w.Error()), w)
		}
	}
	_, err := parseDoc(`{"http://example.org/p": {"@value": "v", "@language": "`+big+`"}}`, Options{ReadOptions: rdf.ReadOptions{Strict: true}})
	if err == nil || len(err.Error()) > 2048 {
		t.Errorf("strict error of %d bytes: %.200v", len(errText(err)), err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestTermLengthLimit: a term longer than Limits.MaxTermLength (64 MiB by
// default) is refused with a limit error, not converted.
func TestTermLengthLimit(t *testing.T) {
	if rdf.DefaultLimits.MaxTermLength != 64<<20 {
		t.Errorf("default term length limit %d, want 64 MiB", rdf.DefaultLimits.MaxTermLength)
	}
	lim := Options{ReadOptions: rdf.ReadOptions{Limits: rdf.Limits{MaxTermLength: 100}}}
	for _, doc := range []string{
		`{"@id": "http://example.org/` + strings.Repeat("a", 200) + `", "http://example.org/p": "v"}`,
		`{"@id": "http://example.org/a", "http://example.org/p": "` + strings.Repeat("v", 200) + `"}`,
	} {
		if _, err := parseDoc(doc, lim); !errors.Is(err, rdf.ErrLimit) {
			t.Errorf("err = %v, want a limit error", err)
		}
	}
}
