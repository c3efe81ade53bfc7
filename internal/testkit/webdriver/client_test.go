package webdriver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// fakeEnd is a fake WebDriver remote end: it answers each "METHOD path"
// with a canned status and value, and records the requests. The paths and
// bodies the tests expect are those of the W3C WebDriver endpoint table
// (https://www.w3.org/TR/webdriver2/#endpoints), written out by hand.
type fakeEnd struct {
	mu      sync.Mutex
	answers map[string]fakeAnswer
	got     []fakeRequest
}

type fakeAnswer struct {
	status int
	body   string // the whole response body
}

type fakeRequest struct {
	Key  string
	Body map[string]any
}

func (f *fakeEnd) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + r.URL.EscapedPath()
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if len(b) > 0 {
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, "bad JSON", http.StatusBadRequest)
			return
		}
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			http.Error(w, "content type "+ct, http.StatusBadRequest)
			return
		}
	}
	f.mu.Lock()
	f.got = append(f.got, fakeRequest{Key: key, Body: body})
	a, ok := f.answers[key]
	f.mu.Unlock()
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"value":{"error":"unknown command","message":"no answer for `+key+`","stacktrace":""}}`)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(a.status)
	io.WriteString(w, a.body)
}

func (f *fakeEnd) requests() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.got)
}

func ok(value string) fakeAnswer { return fakeAnswer{status: 200, body: `{"value":` + value + `}`} }

func newFake(t *testing.T, answers map[string]fakeAnswer) (*fakeEnd, *Client) {
	t.Helper()
	f := &fakeEnd{answers: answers}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, NewClient(srv.URL+"/", nil)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSessionCommands(t *testing.T) {
	const el = `{"element-6066-11e4-a52e-4f735466cecf":"e-1"}`
	png := []byte("\x89PNG\r\n\x1a\nfake")
	f, c := newFake(t, map[string]fakeAnswer{
		"GET /status":                                         ok(`{"ready":true,"message":"ChromeDriver ready for new sessions."}`),
		"POST /session":                                       ok(`{"sessionId":"s 1","capabilities":{"browserName":"chrome","browserVersion":"156"}}`),
		"POST /session/s%201/url":                             ok(`null`),
		"GET /session/s%201/url":                              ok(`"http://127.0.0.1/"`),
		"GET /session/s%201/title":                            ok(`"isolda playground"`),
		"POST /session/s%201/window/rect":                     ok(`{"x":0,"y":0,"width":800,"height":600}`),
		"POST /session/s%201/element":                         ok(el),
		"POST /session/s%201/elements":                        ok(`[` + el + `,{"element-6066-11e4-a52e-4f735466cecf":"e-2"}]`),
		"POST /session/s%201/element/e-1/element":             ok(`{"element-6066-11e4-a52e-4f735466cecf":"e-3"}`),
		"POST /session/s%201/element/e-1/elements":            ok(`[]`),
		"POST /session/s%201/element/e-1/click":               ok(`null`),
		"POST /session/s%201/element/e-1/clear":               ok(`null`),
		"POST /session/s%201/element/e-1/value":               ok(`null`),
		"GET /session/s%201/element/e-1/text":                 ok(`"Serialize"`),
		"GET /session/s%201/element/e-1/name":                 ok(`"button"`),
		"GET /session/s%201/element/e-1/selected":             ok(`true`),
		"GET /session/s%201/element/e-1/enabled":              ok(`false`),
		"GET /session/s%201/element/e-1/attribute/id":         ok(`"run"`),
		"GET /session/s%201/element/e-1/attribute/x":          ok(`null`),
		"GET /session/s%201/element/e-1/property/textContent": ok(`"a\nb"`),
		"GET /session/s%201/element/e-1/screenshot":           ok(`"` + base64.StdEncoding.EncodeToString(png) + `"`),
		"POST /session/s%201/execute/sync":                    ok(`{"n":42,"el":` + el + `}`),
		"GET /session/s%201/screenshot":                       ok(`"` + base64.StdEncoding.EncodeToString(png) + `"`),
		"POST /session/s%201/se/log":                          ok(`[{"level":"SEVERE","message":"boom","source":"console-api","timestamp":1700000000000}]`),
		"POST /session/s%201/goog/cdp/execute":                ok(`{"ok":1}`),
		"DELETE /session/s%201":                               ok(`null`),
	})
	ctx := context.Background()
	st, err := c.Status(ctx)
	if err != nil || !st.Ready || st.Message == "" {
		t.Fatalf("status %+v, %v", st, err)
	}
	s, err := c.NewSession(ctx, SessionOptions{
		Chrome:     &ChromeOptions{Binary: "/usr/bin/chromium", Args: []string{"--headless"}, Prefs: map[string]any{"k": "v"}},
		BrowserLog: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "s 1" || s.Capabilities["browserVersion"] != "156" {
		t.Errorf("session %q %v", s.ID, s.Capabilities)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Navigate(ctx, "http://127.0.0.1/"))
	if u, err := s.CurrentURL(ctx); err != nil || u != "http://127.0.0.1/" {
		t.Errorf("url %q %v", u, err)
	}
	if ti, err := s.Title(ctx); err != nil || ti != "isolda playground" {
		t.Errorf("title %q %v", ti, err)
	}
	must(s.SetWindowSize(ctx, 800, 600))
	e, err := s.FindElement(ctx, "#run")
	must(err)
	if e.ID != "e-1" {
		t.Errorf("element id %q", e.ID)
	}
	es, err := s.FindElements(ctx, "button")
	must(err)
	if len(es) != 2 || es[1].ID != "e-2" {
		t.Errorf("elements %v", es)
	}
	sub, err := e.FindElement(ctx, "span")
	must(err)
	if sub.ID != "e-3" {
		t.Errorf("child %q", sub.ID)
	}
	none, err := e.FindElements(ctx, "i")
	must(err)
	if len(none) != 0 {
		t.Errorf("children %v", none)
	}
	must(e.Click(ctx))
	must(e.Clear(ctx))
	must(e.SendKeys(ctx, "ex:a ex:b ex:c .\n"))
	if txt, err := e.Text(ctx); err != nil || txt != "Serialize" {
		t.Errorf("text %q %v", txt, err)
	}
	if tag, err := e.TagName(ctx); err != nil || tag != "button" {
		t.Errorf("tag %q %v", tag, err)
	}
	if b, err := e.Selected(ctx); err != nil || !b {
		t.Errorf("selected %v %v", b, err)
	}
	if b, err := e.Enabled(ctx); err != nil || b {
		t.Errorf("enabled %v %v", b, err)
	}
	if v, has, err := e.Attribute(ctx, "id"); err != nil || !has || v != "run" {
		t.Errorf("attribute id %q %v %v", v, has, err)
	}
	if v, has, err := e.Attribute(ctx, "x"); err != nil || has || v != "" {
		t.Errorf("attribute x %q %v %v", v, has, err)
	}
	var tc string
	must(e.Property(ctx, "textContent", &tc))
	if tc != "a\nb" {
		t.Errorf("textContent %q", tc)
	}
	var res struct {
		N  int        `json:"n"`
		El elementRef `json:"el"`
	}
	must(s.ExecuteScript(ctx, "return arguments[0]", &res, e, 7))
	if res.N != 42 || res.El[ElementKey] != "e-1" {
		t.Errorf("script result %+v", res)
	}
	must(s.ExecuteScript(ctx, "window.x = 1", nil))
	shot, err := s.Screenshot(ctx)
	must(err)
	if !bytes.Equal(shot, png) {
		t.Errorf("screenshot %q", shot)
	}
	eshot, err := e.Screenshot(ctx)
	must(err)
	if !bytes.Equal(eshot, png) {
		t.Errorf("element screenshot %q", eshot)
	}
	logs, err := s.Log(ctx, "browser")
	must(err)
	if len(logs) != 1 || logs[0].Level != "SEVERE" || logs[0].Message != "boom" || !logs[0].Time().Equal(time.UnixMilli(1700000000000)) {
		t.Errorf("log %+v", logs)
	}
	var cdp map[string]int
	must(s.ExecuteCDP(ctx, "Browser.setDownloadBehavior", map[string]string{"behavior": "allow"}, &cdp))
	if cdp["ok"] != 1 {
		t.Errorf("cdp %v", cdp)
	}
	must(s.Delete(ctx))

	// The requests, as the W3C endpoint table and chromedriver define them.
	want := []struct {
		key  string
		body string // JSON, "" for none
	}{
		{"GET /status", ""},
		{"POST /session", `{"capabilities":{"alwaysMatch":{"browserName":"chrome","goog:chromeOptions":{"args":["--headless"],"binary":"/usr/bin/chromium","prefs":{"k":"v"}},"goog:loggingPrefs":{"browser":"ALL"}},"firstMatch":[{}]}}`},
		{"POST /session/s%201/url", `{"url":"http://127.0.0.1/"}`},
		{"GET /session/s%201/url", ""},
		{"GET /session/s%201/title", ""},
		{"POST /session/s%201/window/rect", `{"height":600,"width":800}`},
		{"POST /session/s%201/element", `{"using":"css selector","value":"#run"}`},
		{"POST /session/s%201/elements", `{"using":"css selector","value":"button"}`},
		{"POST /session/s%201/element/e-1/element", `{"using":"css selector","value":"span"}`},
		{"POST /session/s%201/element/e-1/elements", `{"using":"css selector","value":"i"}`},
		{"POST /session/s%201/element/e-1/click", `{}`},
		{"POST /session/s%201/element/e-1/clear", `{}`},
		{"POST /session/s%201/element/e-1/value", `{"text":"ex:a ex:b ex:c .\n"}`},
		{"GET /session/s%201/element/e-1/text", ""},
		{"GET /session/s%201/element/e-1/name", ""},
		{"GET /session/s%201/element/e-1/selected", ""},
		{"GET /session/s%201/element/e-1/enabled", ""},
		{"GET /session/s%201/element/e-1/attribute/id", ""},
		{"GET /session/s%201/element/e-1/attribute/x", ""},
		{"GET /session/s%201/element/e-1/property/textContent", ""},
		{"POST /session/s%201/execute/sync", `{"args":[{"element-6066-11e4-a52e-4f735466cecf":"e-1"},7],"script":"return arguments[0]"}`},
		{"POST /session/s%201/execute/sync", `{"args":[],"script":"window.x = 1"}`},
		{"GET /session/s%201/screenshot", ""},
		{"GET /session/s%201/element/e-1/screenshot", ""},
		{"POST /session/s%201/se/log", `{"type":"browser"}`},
		{"POST /session/s%201/goog/cdp/execute", `{"cmd":"Browser.setDownloadBehavior","params":{"behavior":"allow"}}`},
		{"DELETE /session/s%201", ""},
	}
	got := f.requests()
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Key != w.key {
			t.Errorf("request %d: %s, want %s", i, got[i].Key, w.key)
			continue
		}
		body := ""
		if got[i].Body != nil {
			body = mustJSON(t, got[i].Body) // map keys sorted
		}
		if body != w.body {
			t.Errorf("%s: body %s, want %s", w.key, body, w.body)
		}
	}
}

func TestErrors(t *testing.T) {
	_, c := newFake(t, map[string]fakeAnswer{
		"POST /session/s/element":   {status: 404, body: `{"value":{"error":"no such element","message":"Unable to locate element: #x","stacktrace":"#0 ..."}}`},
		"POST /session/s/url":       {status: 500, body: `<html>oops</html>`},
		"GET /session/s/title":      {status: 500, body: `{"value":"not an error object"}`},
		"GET /session/s/url":        ok(`{"not":"a string"}`),
		"POST /session":             ok(`{"capabilities":{}}`),
		"POST /session/s/elements":  ok(`[{"no":"ref"}]`),
		"GET /session/s/screenshot": ok(`"not base64!"`),
	})
	ctx := context.Background()
	s := &Session{c: c, ID: "s"}

	_, err := s.FindElement(ctx, "#x")
	var we *Error
	if !errors.As(err, &we) || we.Status != 404 || we.Code != "no such element" || we.Message != "Unable to locate element: #x" || we.Stacktrace != "#0 ..." {
		t.Errorf("find: %#v", err)
	}
	if !IsCode(err, "no such element") || IsCode(err, "stale element reference") {
		t.Error("IsCode")
	}
	if got := err.Error(); got != "webdriver: no such element (HTTP 404): Unable to locate element: #x" {
		t.Errorf("message %q", got)
	}
	err = s.Navigate(ctx, "x")
	if !errors.As(err, &we) || we.Status != 500 || we.Code != "unknown error" || we.Message != "<html>oops</html>" {
		t.Errorf("navigate: %#v", err)
	}
	_, err = s.Title(ctx)
	if !errors.As(err, &we) || we.Code != "unknown error" {
		t.Errorf("title: %#v", err)
	}
	if _, err := s.CurrentURL(ctx); err == nil || errors.As(err, &we) {
		t.Errorf("url: a value of the wrong type should be a decoding error, got %v", err)
	}
	if _, err := c.NewSession(ctx, SessionOptions{}); err == nil {
		t.Error("a session without id was accepted")
	}
	if _, err := s.FindElements(ctx, "p"); err == nil {
		t.Error("an answer without element references was accepted")
	}
	if _, err := s.Screenshot(ctx); err == nil {
		t.Error("a screenshot that is not base64 was accepted")
	}
	_, err = s.Log(ctx, "browser")
	if !IsCode(err, "unknown command") {
		t.Errorf("log: %v", err)
	}
	// A remote end that is not there.
	dead := NewClient("http://127.0.0.1:1", nil)
	if _, err := dead.Status(ctx); err == nil {
		t.Error("status of a closed port")
	}
}

// TestOversizedAnswer checks an answer larger than the bound is refused
// rather than read whole.
func TestOversizedAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"value":"`)
		chunk := strings.Repeat("A", 1<<20)
		for i := 0; i <= maxResponseBytes>>20; i++ {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		io.WriteString(w, `"}`)
	}))
	defer srv.Close()
	s := &Session{c: NewClient(srv.URL, nil), ID: "s"}
	_, err := s.Screenshot(context.Background())
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized answer: %v", err)
	}
}

func TestWaitUntil(t *testing.T) {
	ctx := context.Background()
	n := 0
	err := WaitUntil(ctx, 5*time.Second, time.Millisecond, func(context.Context) (bool, error) {
		n++
		return n == 3, nil
	})
	if err != nil || n != 3 {
		t.Errorf("wait: %v after %d calls", err, n)
	}
	// On virtual time: the condition is checked at 0, 10, ..., 50 ms
	// (twice at 50 ms when the tick comes before the deadline), then the
	// wait gives up, at 50 ms exactly.
	synctest.Test(t, func(t *testing.T) {
		start, calls := time.Now(), 0
		err := WaitUntil(ctx, 50*time.Millisecond, 10*time.Millisecond, func(context.Context) (bool, error) { calls++; return false, nil })
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "still false") {
			t.Errorf("timeout: %v", err)
		}
		if d := time.Since(start); d != 50*time.Millisecond || calls < 6 || calls > 7 {
			t.Errorf("timeout after %v and %d checks, want 50ms and 6 or 7", d, calls)
		}
	})
	boom := errors.New("boom")
	err = WaitUntil(ctx, time.Second, time.Millisecond, func(context.Context) (bool, error) { return false, boom })
	if !errors.Is(err, boom) {
		t.Errorf("error: %v", err)
	}
	// A condition that fails because the wait ran out reports both.
	err = WaitUntil(ctx, 30*time.Millisecond, time.Millisecond, func(ctx context.Context) (bool, error) {
		<-ctx.Done()
		return false, ctx.Err()
	})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "last error") {
		t.Errorf("deadline inside the condition: %v", err)
	}
	// A cancelled parent ends the wait.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err = WaitUntil(cctx, time.Minute, time.Millisecond, func(context.Context) (bool, error) { return false, nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestElementJSON(t *testing.T) {
	b, err := json.Marshal([]any{&Element{ID: "abc"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `[{"element-6066-11e4-a52e-4f735466cecf":"abc"}]` {
		t.Errorf("%s", b)
	}
}

// FuzzDecodeAnswer feeds arbitrary answers to the decoder: it must not
// panic, every non-200 answer must become an *Error with a code and a
// bounded message, and a 200 answer is accepted only if it is JSON.
func FuzzDecodeAnswer(f *testing.F) {
	f.Add(200, []byte(`{"value":{"sessionId":"x"}}`))
	f.Add(404, []byte(`{"value":{"error":"no such element","message":"m","stacktrace":"s"}}`))
	f.Add(500, []byte(`<html>`))
	f.Add(200, []byte(`{"value":null}`))
	f.Add(200, []byte(`{}`))
	f.Add(400, []byte(`{"value":[1,2]}`))
	f.Fuzz(func(t *testing.T, status int, data []byte) {
		var v any
		err := decodeAnswer(status, data, &v)
		if status != http.StatusOK {
			var e *Error
			if !errors.As(err, &e) || e.Code == "" || e.Status != status {
				t.Fatalf("status %d: %#v", status, err)
			}
			if len(e.Message) > maxMessageBytes+len("…") && !json.Valid(data) {
				t.Fatalf("message of %d bytes", len(e.Message))
			}
			return
		}
		if err == nil && !json.Valid(data) {
			t.Fatalf("accepted %q", data)
		}
		var s string
		_ = decodeAnswer(status, data, &s)
		_ = decodeAnswer(status, data, nil)
	})
}
