package jsonld

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/excerpt"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
	"github.com/isolda/isolda/rdf/rdferr"
)

// schemaOrgContext is the official schema.org JSON-LD context, release 30.0
// (CC BY-SA 3.0; see contexts/NOTICE.md).
//
//go:embed contexts/schemaorg-v30.0.jsonld
var schemaOrgContext []byte

// SchemaOrgContext returns a copy of the embedded schema.org JSON-LD context
// (release 30.0), the document the loader serves for the schema.org URLs.
func SchemaOrgContext() []byte { return bytes.Clone(schemaOrgContext) }

// schemaOrgURLs are the addresses under which schema.org publishes its
// context; the loader answers all of them with the embedded copy.
func isSchemaOrgURL(u string) bool {
	u = strings.TrimSuffix(u, "#")
	for _, scheme := range []string{"http://", "https://"} {
		rest, ok := strings.CutPrefix(u, scheme)
		if !ok {
			continue
		}
		rest = strings.TrimPrefix(rest, "www.")
		switch rest {
		case "schema.org", "schema.org/",
			"schema.org/docs/jsonldcontext.json", "schema.org/docs/jsonldcontext.jsonld",
			"schema.org/docs/jsonldcontext.json/", "schema.org/docs/jsonldcontext.jsonld/":
			return true
		}
	}
	return false
}

// remoteTimeout bounds one remote fetch when remote loading is allowed.
const remoteTimeout = 30 * time.Second

// maxContextBytes bounds the size of a context file read by the loader.
const maxContextBytes = 64 << 20

// maxRemoteContextBytes bounds the size of a context fetched from the
// network, and maxRedirects the redirects followed to get it.
const (
	maxRemoteContextBytes = 8 << 20
	maxRedirects          = 5
)

// DocumentLoader loads the remote contexts a document names (Options.Loader,
// WriteOptions.Loader). Its errors should be *Error or carry a JSON-LD error
// code through LoadFailed; any other error is reported as "loading document
// failed".
type DocumentLoader = ldproc.DocumentLoader

// RemoteDocument is what a DocumentLoader returns: the document's URL after
// redirects and its decoded JSON.
type RemoteDocument = ldproc.RemoteDocument

// LoadFailed returns the "loading document failed" error a DocumentLoader
// gives for a document it cannot load: msg says why, err (or nil) is the
// cause, which errors.Is and errors.As find.
func LoadFailed(msg string, err error) error { return ldproc.LoadFailed(msg, err) }

// loader is the offline document loader: it serves the embedded schema.org
// context and the files of Options.Contexts, and reaches the network only
// when Options.AllowRemote is set. Decoded documents are cached per loader.
type loader struct {
	files    map[string]string // URL -> local file
	remote   *http.Client      // nil unless remote loading is allowed
	maxDepth int               // JSON nesting limit for loaded documents

	mu    sync.Mutex
	cache map[string]*RemoteDocument
}

// NewLoader returns the document loader Parse uses for opts: it never
// touches the network unless opts.AllowRemote is set; it serves the embedded
// schema.org context for http(s)://schema.org (with or without a trailing
// slash, with or without "www.") and .../docs/jsonldcontext.json(ld), and
// the local files named by opts.Contexts (URL -> file). Any other URL fails
// with a "loading document failed" error that names the URL.
func NewLoader(opts Options) DocumentLoader {
	l := &loader{files: map[string]string{}, cache: map[string]*RemoteDocument{},
		maxDepth: opts.Limits.WithDefaults().MaxDepth}
	for u, f := range opts.Contexts {
		l.files[u] = f
	}
	if opts.AllowRemote {
		l.remote = &http.Client{Timeout: remoteTimeout, CheckRedirect: sameOrigin}
	}
	return l
}

// sameOrigin follows a redirect only to the same scheme, host and port,
// at most maxRedirects times: a context URL that is allowed cannot send the
// loader to another server (one inside the network, say).
func sameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("more than %d redirects", maxRedirects)
	}
	from := via[0].URL
	if req.URL.Scheme != from.Scheme || !strings.EqualFold(req.URL.Host, from.Host) {
		return fmt.Errorf("redirect from %s://%s to another host (%s://%s) refused", from.Scheme, from.Host, req.URL.Scheme, req.URL.Host)
	}
	return nil
}

// fetch gets a context document over HTTP(S): only http and https URLs
// with a host (never a local file, whatever the base IRI made of a
// relative reference), a 200 response, at most maxRemoteContextBytes. It
// returns the document and its URL after redirects.
func (l *loader) fetch(u string) ([]byte, string, error) {
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
		return nil, "", fmt.Errorf("only http and https URLs are fetched, not %s", excerpt.Quote(u))
	}
	req, err := http.NewRequest(http.MethodGet, u, http.NoBody)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Accept", "application/ld+json, application/json;q=0.9, */*;q=0.1")
	res, err := l.remote.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("HTTP status %d", res.StatusCode)
	}
	data, over, err := rdferr.Limits{MaxBytes: maxRemoteContextBytes}.ReadAll(res.Body)
	if err != nil {
		return nil, "", err
	}
	if over {
		return nil, "", fmt.Errorf("larger than %d bytes: %w", maxRemoteContextBytes, rdf.ErrLimit)
	}
	return data, res.Request.URL.String(), nil
}

// LoadDocument implements DocumentLoader.
func (l *loader) LoadDocument(u string) (*RemoteDocument, error) {
	l.mu.Lock()
	rd, ok := l.cache[u]
	l.mu.Unlock()
	if ok {
		return &RemoteDocument{DocumentURL: rd.DocumentURL, Document: rd.Document}, nil
	}
	var data []byte
	docURL := u
	if f, ok := l.lookupFile(u); ok {
		b, err := readFileLimited(f)
		if err != nil {
			return nil, ldproc.LoadFailed(fmt.Sprintf("context %s: reading %s: %v", u, f, err), err)
		}
		data = b
	} else if isSchemaOrgURL(u) {
		data = schemaOrgContext
	} else if l.remote != nil {
		b, final, err := l.fetch(u)
		if err != nil {
			return nil, ldproc.LoadFailed(fmt.Sprintf("context %s: %v", excerpt.Cut(u), err), err)
		}
		data, docURL = b, final
	} else {
		return nil, ldproc.LoadFailed(fmt.Sprintf(
			"context %s is not available offline (map it to a local file with Options.Contexts, "+
				"--context URL=FILE on the command line, or allow remote loading)", u), nil)
	}
	if l.maxDepth > 0 && depthExceeded(data, l.maxDepth) >= 0 {
		return nil, ldproc.LoadFailed(fmt.Sprintf("context %s: JSON nesting deeper than %d", u, l.maxDepth), nil)
	}
	doc, err := decodeJSONDoc(data)
	if err != nil {
		return nil, ldproc.LoadFailed(fmt.Sprintf("context %s: %v", u, err), err)
	}
	l.mu.Lock()
	l.cache[u] = &RemoteDocument{DocumentURL: docURL, Document: doc}
	l.mu.Unlock()
	return &RemoteDocument{DocumentURL: docURL, Document: doc}, nil
}

// lookupFile finds the local file for u, also trying u without or with a
// trailing slash.
func (l *loader) lookupFile(u string) (string, bool) {
	if f, ok := l.files[u]; ok {
		return f, true
	}
	alt := u + "/"
	if strings.HasSuffix(u, "/") {
		alt = strings.TrimSuffix(u, "/")
	}
	f, ok := l.files[alt]
	return f, ok
}

func readFileLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, over, err := rdferr.Limits{MaxBytes: maxContextBytes}.ReadAll(f)
	if err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("larger than %d bytes", maxContextBytes)
	}
	return b, nil
}

// decodeJSONDoc decodes one JSON value (numbers as float64, which is what
// the algorithms of package ldproc expect) and rejects trailing data.
func decodeJSONDoc(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return v, nil
}

// Guards against runaway remote context processing. json-gold's check for
// recursive context inclusion does not work (it copies the list of contexts
// being processed into a zero-length slice), so a context that includes
// itself, directly or not, recursed until the Go stack overflowed, a fatal
// error that recover cannot catch.
const (
	// baseStackFrames is the stack depth (in frames, beyond 8 per level of
	// allowed JSON nesting) at which loading one more context is refused.
	baseStackFrames = 10000
	// stackCheckEvery is how often (in loads) the stack depth is checked.
	stackCheckEvery = 32
)

// guardedLoader wraps the loader of one input with those guards.
type guardedLoader struct {
	next      DocumentLoader
	maxFrames int
	loads     int
}

func newGuardedLoader(next DocumentLoader, maxDepth int) *guardedLoader {
	return &guardedLoader{next: next, maxFrames: baseStackFrames + 8*max(maxDepth, 0)}
}

// LoadDocument implements DocumentLoader.
func (g *guardedLoader) LoadDocument(u string) (*RemoteDocument, error) {
	g.loads++
	if g.loads > ldproc.MaxContextLoads {
		return nil, &ldproc.Error{Code: ldproc.ContextOverflow,
			Msg: fmt.Sprintf("more than %d remote context loads (at %s)", ldproc.MaxContextLoads, u)}
	}
	// Unwinding the stack costs time proportional to its depth, so look
	// only every stackCheckEvery loads: a runaway recursion is still caught
	// within that many levels.
	var pc [1]uintptr
	if g.loads%stackCheckEvery == 0 && runtime.Callers(g.maxFrames, pc[:]) > 0 {
		return nil, &ldproc.Error{Code: ldproc.ContextOverflow,
			Msg: fmt.Sprintf("remote contexts nested too deeply at %s (a context that includes itself?)", u)}
	}
	return g.next.LoadDocument(u)
}
