// Package sparql is a SPARQL 1.1 Protocol client for graph retrieval: it
// sends CONSTRUCT and DESCRIBE queries to an endpoint over GET, POST with an
// application/sparql-query body, or POST with a form-encoded body, asks for
// N-Triples, Turtle or JSON-LD by content negotiation, and parses the answer
// with rdf/rdfio into a dataset, under a time limit and a size limit.
//
// The protocol is https://www.w3.org/TR/sparql11-protocol/ (section 2.1,
// query operation).
package sparql

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// Method is how a query is sent (SPARQL 1.1 Protocol, section 2.1).
type Method int

const (
	// Get sends the query in the query string: GET endpoint?query=...
	Get Method = iota
	// Post sends the query as the body, Content-Type
	// application/sparql-query.
	//
	// Virtuoso 7.2 never answers such a request (openlink/virtuoso-opensource
	// issue 842); use PostForm with it.
	Post
	// PostForm sends query=... as an application/x-www-form-urlencoded
	// body.
	PostForm
)

// String returns the method's name (GET, POST, POST-form).
func (m Method) String() string {
	switch m {
	case Get:
		return "GET"
	case Post:
		return "POST"
	case PostForm:
		return "POST-form"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod returns the method named get, post or form (case-insensitive;
// empty means Get).
func ParseMethod(name string) (Method, error) {
	switch strings.ToLower(name) {
	case "", "get":
		return Get, nil
	case "post", "post-direct":
		return Post, nil
	case "form", "post-form", "post-urlencoded":
		return PostForm, nil
	}
	return Get, fmt.Errorf("unknown SPARQL protocol method %q (known: get, post, form)", name)
}

// Accept is the Accept header sent with queries: the RDF syntaxes the
// client reads, best first.
const Accept = "application/n-triples, text/turtle;q=0.9, application/ld+json;q=0.8, " +
	"application/rdf+xml;q=0.5, application/n-quads;q=0.4, application/trig;q=0.4, text/plain;q=0.1"

// Defaults of Client's limits.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultMaxBytes = 64 << 20
	// MaxGetQuery is the longest URL-encoded query sent with Get; a longer
	// one is sent with PostForm instead, as URLs that long are often cut
	// by servers and proxies.
	MaxGetQuery = 4096
	// snippetBytes bounds the part of an error answer quoted in errors.
	snippetBytes = 300
)

// Client sends queries. The zero value is ready to use; a Client is safe
// for concurrent use as long as its fields are not changed.
type Client struct {
	// HTTP is the HTTP client; nil means a client with no own timeout
	// (the request context carries Timeout).
	HTTP *http.Client
	// Method is how queries are sent (default Get).
	Method Method
	// Timeout bounds one query, from sending to the end of parsing;
	// zero means DefaultTimeout, negative means none.
	Timeout time.Duration
	// MaxBytes bounds the response body; zero means DefaultMaxBytes.
	MaxBytes int64
	// MaxQuads bounds the quads of the result; zero means the rdf
	// package's default.
	MaxQuads int64
	// AllowURL, when set, must accept the endpoint URL and the target of
	// every redirect; a refused URL fails the query.
	AllowURL func(u string) bool
	// UserAgent is sent as User-Agent when not empty.
	UserAgent string
}

// HTTPError is an endpoint's answer that is not a graph: a status other
// than 200 or a body of a media type that is not RDF.
type HTTPError struct {
	// Endpoint is the URL queried.
	Endpoint string
	// Status is the HTTP status code and ContentType the media type.
	Status      int
	ContentType string
	// Snippet is the start of the body (at most 300 bytes, valid UTF-8).
	// Error does not quote it: a body may hold what whoever reads the
	// error must not see (a private page reached through a URL a service
	// fetched for its client); callers that trust the endpoint may show
	// it.
	Snippet string
	// Reason says what was wrong.
	Reason string
}

// Error names the endpoint, the status and the media type of the answer,
// never its content (see Snippet).
func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("sparql endpoint %s: %s (HTTP %d %s", e.Endpoint, e.Reason, e.Status, http.StatusText(e.Status))
	if e.ContentType != "" {
		msg += ", " + e.ContentType
	}
	return msg + ")"
}

// Construct runs a CONSTRUCT or DESCRIBE query and returns the graph.
// Syntax errors in the answer are *rdf.ParseError (File is the endpoint);
// answers that are not graphs are *HTTPError; a response over MaxBytes or
// MaxQuads wraps rdf.ErrLimit.
func (c *Client) Construct(ctx context.Context, endpoint, query string) (*rdf.Dataset, error) {
	if _, err := QueryForm(query); err != nil {
		return nil, err
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("sparql: endpoint %q is not an http or https URL", endpoint)
	}
	if c.AllowURL != nil && !c.AllowURL(endpoint) {
		return nil, fmt.Errorf("sparql: endpoint %s is not allowed", endpoint)
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	req, err := c.newRequest(ctx, u, query)
	if err != nil {
		return nil, err
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("sparql endpoint %s: no answer within %s: %w", endpoint, timeout, err)
		}
		return nil, fmt.Errorf("sparql endpoint %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	maxBytes := c.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	body := &limitReader{r: resp.Body, n: maxBytes}
	ctype := resp.Header.Get("Content-Type")
	mediaType, _, _ := mime.ParseMediaType(ctype)
	if resp.StatusCode != http.StatusOK {
		return nil, answerError(endpoint, resp, body, "the endpoint refused the query")
	}
	format, ok := formatOf(mediaType)
	if !ok {
		return nil, answerError(endpoint, resp, body, "the answer is not an RDF graph")
	}
	opts := rdfio.Options{Format: format}
	opts.File = endpoint
	opts.Base = endpoint
	opts.Limits = rdf.Limits{MaxBytes: maxBytes, MaxQuads: c.MaxQuads}
	d, err := rdfio.Read(body, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sparql endpoint %s: reading the answer: %w", endpoint, ctx.Err())
		}
		return nil, err
	}
	return d, nil
}

// newRequest builds the protocol request for the configured method.
func (c *Client) newRequest(ctx context.Context, u *url.URL, query string) (*http.Request, error) {
	method := c.Method
	form := url.Values{"query": {query}}.Encode()
	if method == Get && len(form) > MaxGetQuery {
		method = PostForm
	}
	var req *http.Request
	var err error
	switch method {
	case Get:
		v := *u
		if v.RawQuery != "" {
			v.RawQuery += "&" + form
		} else {
			v.RawQuery = form
		}
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, v.String(), nil)
	case Post:
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(query))
		if err == nil {
			req.Header.Set("Content-Type", "application/sparql-query; charset=utf-8")
		}
	case PostForm:
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form))
		if err == nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
	default:
		return nil, fmt.Errorf("sparql: unknown method %v", method)
	}
	if err != nil {
		return nil, fmt.Errorf("sparql: %w", err)
	}
	req.Header.Set("Accept", Accept)
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	return req, nil
}

// httpClient returns the HTTP client, with the redirect check of AllowURL.
func (c *Client) httpClient() *http.Client {
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	if c.AllowURL == nil {
		return hc
	}
	cp := *hc
	inner := hc.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !c.AllowURL(req.URL.String()) {
			return fmt.Errorf("redirect to %s is not allowed", req.URL)
		}
		if inner != nil {
			return inner(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cp
}

// formatOf maps a response media type to a syntax: rdfio's table, and
// text/plain, which SPARQL endpoints use for N-Triples.
func formatOf(mediaType string) (rdfio.Format, bool) {
	if strings.EqualFold(mediaType, "text/plain") {
		return rdfio.NTriples, true
	}
	s, ok := rdfio.ByMediaType(mediaType)
	return s.Name, ok
}

// answerError reads the start of a refused answer into an *HTTPError.
func answerError(endpoint string, resp *http.Response, body io.Reader, reason string) *HTTPError {
	buf := make([]byte, snippetBytes)
	n, _ := io.ReadFull(body, buf)
	return &HTTPError{Endpoint: endpoint, Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"),
		Snippet: snippet(buf[:n]), Reason: reason}
}

// snippet makes b printable on one line: valid UTF-8, spaces for control
// characters, trimmed.
func snippet(b []byte) string {
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1] // a rune cut at the end
	}
	s := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, string(b))
	return strings.Join(strings.Fields(s), " ")
}

// limitReader fails with rdf.ErrLimit after n bytes.
type limitReader struct {
	r io.Reader
	n int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// One more byte tells a body of exactly n bytes from a longer one.
		var one [1]byte
		k, err := l.r.Read(one[:])
		if k > 0 {
			return 0, fmt.Errorf("%w: answer larger than the limit", rdf.ErrLimit)
		}
		return 0, err
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	k, err := l.r.Read(p)
	l.n -= int64(k)
	return k, err
}

// QueryForm returns the form of a query, CONSTRUCT or DESCRIBE, after its
// prologue (BASE and PREFIX declarations and comments); other forms (SELECT,
// ASK) and updates are an error, as they do not return graphs.
func QueryForm(query string) (string, error) {
	s := query
	for {
		s = skipSpace(s)
		word, rest := keyword(s)
		switch strings.ToUpper(word) {
		case "BASE":
			_, r, ok := iriRef(skipSpace(rest))
			if !ok {
				return "", errors.New("sparql: BASE without an <IRI>")
			}
			s = r
			continue
		case "PREFIX":
			r := skipSpace(rest)
			i := strings.IndexByte(r, ':')
			if i < 0 || strings.ContainsAny(r[:i], " \t\r\n<>") {
				return "", errors.New("sparql: PREFIX without a prefix name")
			}
			_, r, ok := iriRef(skipSpace(r[i+1:]))
			if !ok {
				return "", errors.New("sparql: PREFIX without an <IRI>")
			}
			s = r
			continue
		case "CONSTRUCT", "DESCRIBE":
			return strings.ToUpper(word), nil
		case "":
			return "", errors.New("sparql: empty query, CONSTRUCT or DESCRIBE expected")
		default:
			return "", fmt.Errorf("sparql: %s query: only CONSTRUCT and DESCRIBE queries return graphs", strings.ToUpper(word))
		}
	}
}

// skipSpace skips white space and # comments.
func skipSpace(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if !strings.HasPrefix(s, "#") {
			return s
		}
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
}

// keyword returns the leading run of letters of s.
func keyword(s string) (string, string) {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == 0 && s != "" {
		// Not a keyword: return the first rune so the caller can name it.
		_, n := utf8.DecodeRuneInString(s)
		return s[:n], s[n:]
	}
	return s[:i], s[i:]
}

// iriRef reads <...> at the start of s.
func iriRef(s string) (string, string, bool) {
	if !strings.HasPrefix(s, "<") {
		return "", s, false
	}
	i := strings.IndexByte(s, '>')
	if i < 0 {
		return "", s, false
	}
	return s[1:i], s[i+1:], true
}
