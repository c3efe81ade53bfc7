// Package webdriver is a small client of the W3C WebDriver protocol
// (https://www.w3.org/TR/webdriver2/) on net/http and encoding/json, enough
// to drive a headless browser from Go tests: start chromedriver as a child
// process (Start), open a session, navigate, find elements by CSS selector,
// type, click, read text, attributes and properties, run scripts, wait for
// conditions, take screenshots and read the browser's console log.
//
// Every call takes a context; errors of the remote end are *Error values
// carrying the WebDriver error code ("no such element", ...) and message.
package webdriver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ElementKey is the JSON key of a web element reference (WebDriver §12.1).
const ElementKey = "element-6066-11e4-a52e-4f735466cecf"

// maxResponseBytes bounds a response body (screenshots are the largest).
const maxResponseBytes = 64 << 20

// Error is an error returned by the remote end: the HTTP status, the
// WebDriver error code (such as "no such element" or "javascript error")
// and the message.
type Error struct {
	// Status is the HTTP status of the response.
	Status int
	// Code is the WebDriver error code.
	Code string
	// Message is the remote end's explanation.
	Message string
	// Stacktrace is the remote end's stack trace, if any.
	Stacktrace string
}

// Error formats the code and the message.
func (e *Error) Error() string {
	return fmt.Sprintf("webdriver: %s (HTTP %d): %s", e.Code, e.Status, e.Message)
}

// IsCode reports whether err is (or wraps) an *Error with the given code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// Client talks to a WebDriver remote end at a base URL.
type Client struct {
	base string
	http *http.Client
}

// NewClient returns a client of the remote end at baseURL (such as
// http://127.0.0.1:9515); hc nil means a client without a global timeout
// (each call is bounded by its context).
func NewClient(baseURL string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{base: strings.TrimRight(baseURL, "/"), http: hc}
}

// URL returns the base URL of the remote end.
func (c *Client) URL() string { return c.base }

// do sends one command and decodes the "value" member of the answer into
// out (unless out is nil).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("webdriver: %s %s: encoding the request: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return fmt.Errorf("webdriver: %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("webdriver: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return fmt.Errorf("webdriver: %s %s: reading the answer: %w", method, path, err)
	}
	if len(data) > maxResponseBytes {
		return fmt.Errorf("webdriver: %s %s: answer larger than %d bytes", method, path, maxResponseBytes)
	}
	if err := decodeAnswer(resp.StatusCode, data, out); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return err
		}
		return fmt.Errorf("webdriver: %s %s: %w", method, path, err)
	}
	return nil
}

// decodeAnswer decodes a response of the remote end: the "value" member
// into out (unless out is nil) for status 200, an *Error otherwise.
func decodeAnswer(status int, data []byte, out any) error {
	var env struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		if status != http.StatusOK {
			return &Error{Status: status, Code: "unknown error", Message: clip(data)}
		}
		return fmt.Errorf("answer is not JSON: %w", err)
	}
	if status != http.StatusOK {
		var e struct {
			Error      string `json:"error"`
			Message    string `json:"message"`
			Stacktrace string `json:"stacktrace"`
		}
		_ = json.Unmarshal(env.Value, &e) // a value that is not an error object leaves e empty
		if e.Error == "" {
			e.Error = "unknown error"
			e.Message = clip(data)
		}
		return &Error{Status: status, Code: e.Error, Message: e.Message, Stacktrace: e.Stacktrace}
	}
	if out == nil {
		return nil
	}
	if len(env.Value) == 0 {
		return errors.New("answer has no value")
	}
	if err := json.Unmarshal(env.Value, out); err != nil {
		return fmt.Errorf("decoding the value: %w", err)
	}
	return nil
}

// maxMessageBytes bounds the message of an *Error made of a whole body.
const maxMessageBytes = 4096

// clip returns a response body as an error message, cut to
// maxMessageBytes.
func clip(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > maxMessageBytes {
		s = strings.ToValidUTF8(s[:maxMessageBytes], "") + "…"
	}
	return s
}

// Status is the answer of GET /status.
type Status struct {
	// Ready is true when the remote end can create a session.
	Ready bool `json:"ready"`
	// Message describes the state.
	Message string `json:"message"`
}

// Status asks the remote end whether it is ready.
func (c *Client) Status(ctx context.Context) (Status, error) {
	var s Status
	err := c.do(ctx, http.MethodGet, "/status", nil, &s)
	return s, err
}

// ChromeOptions are the goog:chromeOptions capability of chromedriver.
type ChromeOptions struct {
	// Binary is the browser executable; empty lets chromedriver find it.
	Binary string `json:"binary,omitempty"`
	// Args are the browser's command-line flags.
	Args []string `json:"args,omitempty"`
	// Prefs are browser preferences (such as download.default_directory).
	Prefs map[string]any `json:"prefs,omitempty"`
}

// SessionOptions describe the session to create.
type SessionOptions struct {
	// BrowserName is the browserName capability (empty: "chrome" when
	// Chrome is set, else none).
	BrowserName string
	// Chrome are the goog:chromeOptions; nil sends none.
	Chrome *ChromeOptions
	// BrowserLog asks chromedriver to keep the browser console log at
	// level ALL (goog:loggingPrefs), for Session.Log.
	BrowserLog bool
	// Extra are more capabilities, merged into alwaysMatch.
	Extra map[string]any
}

// Session is a WebDriver session.
type Session struct {
	c *Client
	// ID is the session id.
	ID string
	// Capabilities are the capabilities the remote end granted.
	Capabilities map[string]any
}

// NewSession creates a session.
func (c *Client) NewSession(ctx context.Context, opts SessionOptions) (*Session, error) {
	always := map[string]any{}
	for k, v := range opts.Extra {
		always[k] = v
	}
	name := opts.BrowserName
	if name == "" && opts.Chrome != nil {
		name = "chrome"
	}
	if name != "" {
		always["browserName"] = name
	}
	if opts.Chrome != nil {
		always["goog:chromeOptions"] = opts.Chrome
	}
	if opts.BrowserLog {
		always["goog:loggingPrefs"] = map[string]string{"browser": "ALL"}
	}
	body := map[string]any{"capabilities": map[string]any{"alwaysMatch": always, "firstMatch": []any{map[string]any{}}}}
	var v struct {
		SessionID    string         `json:"sessionId"`
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := c.do(ctx, http.MethodPost, "/session", body, &v); err != nil {
		return nil, err
	}
	if v.SessionID == "" {
		return nil, errors.New("webdriver: new session: the answer has no sessionId")
	}
	return &Session{c: c, ID: v.SessionID, Capabilities: v.Capabilities}, nil
}

// path is the URL path of a session command.
func (s *Session) path(parts ...string) string {
	var b strings.Builder
	b.WriteString("/session/")
	b.WriteString(url.PathEscape(s.ID))
	for _, p := range parts {
		b.WriteByte('/')
		b.WriteString(p)
	}
	return b.String()
}

// Delete ends the session (and closes its browser).
func (s *Session) Delete(ctx context.Context) error {
	return s.c.do(ctx, http.MethodDelete, s.path(), nil, nil)
}

// Navigate loads url in the current browsing context and waits for the
// page load the session's page load strategy asks for.
func (s *Session) Navigate(ctx context.Context, url string) error {
	return s.c.do(ctx, http.MethodPost, s.path("url"), map[string]string{"url": url}, nil)
}

// CurrentURL returns the URL of the current page.
func (s *Session) CurrentURL(ctx context.Context) (string, error) {
	var u string
	err := s.c.do(ctx, http.MethodGet, s.path("url"), nil, &u)
	return u, err
}

// Title returns the title of the current page.
func (s *Session) Title(ctx context.Context) (string, error) {
	var t string
	err := s.c.do(ctx, http.MethodGet, s.path("title"), nil, &t)
	return t, err
}

// SetWindowSize sets the outer size of the current window in CSS pixels.
func (s *Session) SetWindowSize(ctx context.Context, width, height int) error {
	return s.c.do(ctx, http.MethodPost, s.path("window", "rect"), map[string]int{"width": width, "height": height}, nil)
}

// locator is the body of the Find Element(s) commands.
func locator(css string) map[string]string {
	return map[string]string{"using": "css selector", "value": css}
}

// elementRef is a web element reference as the remote end sends it.
type elementRef map[string]string

func (s *Session) element(ref elementRef) (*Element, error) {
	id, ok := ref[ElementKey]
	if !ok || id == "" {
		return nil, errors.New("webdriver: the answer is not a web element reference")
	}
	return &Element{s: s, ID: id}, nil
}

func (s *Session) elements(refs []elementRef) ([]*Element, error) {
	out := make([]*Element, 0, len(refs))
	for _, r := range refs {
		e, err := s.element(r)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// FindElement returns the first element matching the CSS selector; an
// *Error with code "no such element" when there is none.
func (s *Session) FindElement(ctx context.Context, css string) (*Element, error) {
	var ref elementRef
	if err := s.c.do(ctx, http.MethodPost, s.path("element"), locator(css), &ref); err != nil {
		return nil, err
	}
	return s.element(ref)
}

// FindElements returns every element matching the CSS selector, in
// document order (none is not an error).
func (s *Session) FindElements(ctx context.Context, css string) ([]*Element, error) {
	var refs []elementRef
	if err := s.c.do(ctx, http.MethodPost, s.path("elements"), locator(css), &refs); err != nil {
		return nil, err
	}
	return s.elements(refs)
}

// ExecuteScript runs script (a function body; arguments are in
// `arguments`) synchronously in the page, and decodes its return value into
// result unless result is nil. Arguments are JSON values or *Element.
func (s *Session) ExecuteScript(ctx context.Context, script string, result any, args ...any) error {
	if args == nil {
		args = []any{}
	}
	return s.c.do(ctx, http.MethodPost, s.path("execute", "sync"), map[string]any{"script": script, "args": args}, result)
}

// Screenshot returns a PNG of the current viewport.
func (s *Session) Screenshot(ctx context.Context) ([]byte, error) {
	return s.screenshot(ctx, s.path("screenshot"))
}

func (s *Session) screenshot(ctx context.Context, path string) ([]byte, error) {
	var b64 string
	if err := s.c.do(ctx, http.MethodGet, path, nil, &b64); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("webdriver: screenshot: %w", err)
	}
	return png, nil
}

// LogEntry is one entry of a browser log.
type LogEntry struct {
	// Level is SEVERE, WARNING, INFO, DEBUG...
	Level string `json:"level"`
	// Message is the text, as the browser wrote it.
	Message string `json:"message"`
	// Source is what logged it (javascript, network, security, ...).
	Source string `json:"source"`
	// Timestamp is in milliseconds since the Unix epoch.
	Timestamp int64 `json:"timestamp"`
}

// Time returns the entry's time.
func (e LogEntry) Time() time.Time { return time.UnixMilli(e.Timestamp) }

// Log returns the entries of the log of the given type ("browser" is the
// console) logged since the previous call. It is not part of the W3C
// protocol: chromedriver offers it (with SessionOptions.BrowserLog); other
// remote ends answer with an *Error.
func (s *Session) Log(ctx context.Context, typ string) ([]LogEntry, error) {
	var entries []LogEntry
	err := s.c.do(ctx, http.MethodPost, s.path("se", "log"), map[string]string{"type": typ}, &entries)
	return entries, err
}

// ExecuteCDP sends a Chrome DevTools Protocol command through chromedriver
// (not part of the W3C protocol) and decodes its result into result unless
// result is nil.
func (s *Session) ExecuteCDP(ctx context.Context, cmd string, params, result any) error {
	if params == nil {
		params = map[string]any{}
	}
	return s.c.do(ctx, http.MethodPost, s.path("goog", "cdp", "execute"), map[string]any{"cmd": cmd, "params": params}, result)
}

// Element is a web element of a session.
type Element struct {
	s *Session
	// ID is the web element reference.
	ID string
}

// MarshalJSON writes the element as a web element reference, so that an
// *Element can be passed to ExecuteScript.
func (e *Element) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{ElementKey: e.ID})
}

func (e *Element) path(parts ...string) string {
	return e.s.path(append([]string{"element", url.PathEscape(e.ID)}, parts...)...)
}

// FindElement returns the first descendant matching the CSS selector.
func (e *Element) FindElement(ctx context.Context, css string) (*Element, error) {
	var ref elementRef
	if err := e.s.c.do(ctx, http.MethodPost, e.path("element"), locator(css), &ref); err != nil {
		return nil, err
	}
	return e.s.element(ref)
}

// FindElements returns the descendants matching the CSS selector.
func (e *Element) FindElements(ctx context.Context, css string) ([]*Element, error) {
	var refs []elementRef
	if err := e.s.c.do(ctx, http.MethodPost, e.path("elements"), locator(css), &refs); err != nil {
		return nil, err
	}
	return e.s.elements(refs)
}

// Click scrolls the element into view and clicks its centre.
func (e *Element) Click(ctx context.Context) error {
	return e.s.c.do(ctx, http.MethodPost, e.path("click"), map[string]any{}, nil)
}

// Clear empties an editable element.
func (e *Element) Clear(ctx context.Context) error {
	return e.s.c.do(ctx, http.MethodPost, e.path("clear"), map[string]any{}, nil)
}

// SendKeys focuses the element and types text as key strokes (a newline
// is the Enter key). For an <input type=file>, text is the path of a local
// file to select.
func (e *Element) SendKeys(ctx context.Context, text string) error {
	return e.s.c.do(ctx, http.MethodPost, e.path("value"), map[string]string{"text": text}, nil)
}

// Text returns the element's rendered text (innerText-like: whitespace as
// displayed).
func (e *Element) Text(ctx context.Context) (string, error) {
	var t string
	err := e.s.c.do(ctx, http.MethodGet, e.path("text"), nil, &t)
	return t, err
}

// Attribute returns the value of an attribute, and false when the element
// has no such attribute.
func (e *Element) Attribute(ctx context.Context, name string) (string, bool, error) {
	var v *string
	if err := e.s.c.do(ctx, http.MethodGet, e.path("attribute", url.PathEscape(name)), nil, &v); err != nil {
		return "", false, err
	}
	if v == nil {
		return "", false, nil
	}
	return *v, true, nil
}

// Property decodes the value of a DOM property (such as value, checked or
// textContent) into v.
func (e *Element) Property(ctx context.Context, name string, v any) error {
	return e.s.c.do(ctx, http.MethodGet, e.path("property", url.PathEscape(name)), nil, v)
}

// TagName returns the element's tag name.
func (e *Element) TagName(ctx context.Context) (string, error) {
	var t string
	err := e.s.c.do(ctx, http.MethodGet, e.path("name"), nil, &t)
	return t, err
}

// Selected reports whether a checkbox, radio button or option is selected.
func (e *Element) Selected(ctx context.Context) (bool, error) {
	var b bool
	err := e.s.c.do(ctx, http.MethodGet, e.path("selected"), nil, &b)
	return b, err
}

// Enabled reports whether a form control is enabled.
func (e *Element) Enabled(ctx context.Context) (bool, error) {
	var b bool
	err := e.s.c.do(ctx, http.MethodGet, e.path("enabled"), nil, &b)
	return b, err
}

// Screenshot returns a PNG of the element's bounding box.
func (e *Element) Screenshot(ctx context.Context) ([]byte, error) {
	return e.s.screenshot(ctx, e.path("screenshot"))
}

// WaitUntil calls cond every interval until it returns true, returns an
// error, or timeout passes (or ctx ends). On timeout the error wraps
// context.DeadlineExceeded and says what cond last reported.
func WaitUntil(ctx context.Context, timeout, interval time.Duration, cond func(context.Context) (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if interval <= 0 {
		interval = 50 * time.Millisecond
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		ok, err := cond(ctx)
		switch {
		case ok && err == nil:
			return nil
		case err != nil && ctx.Err() == nil:
			return err
		case ctx.Err() != nil:
			if err != nil {
				return fmt.Errorf("webdriver: wait: %w (last error: %v)", ctx.Err(), err)
			}
			return fmt.Errorf("webdriver: wait: condition still false after %v: %w", timeout, ctx.Err())
		}
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
}
