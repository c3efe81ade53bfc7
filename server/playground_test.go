package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/isolda/isolda/examples"
)

// inline returns the content of the first <tag>...</tag> whose opening tag
// is exactly open.
func inline(t *testing.T, page, open, end string) string {
	t.Helper()
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatalf("no %s in the page", open)
	}
	rest := page[i+len(open):]
	j := strings.Index(rest, end)
	if j < 0 {
		t.Fatalf("%s not closed", open)
	}
	return rest[:j]
}

// TestPlayground checks the page is served as HTML with a strict
// Content-Security-Policy whose hashes match its inline style and script.
func TestPlayground(t *testing.T) {
	h := New(Config{})
	code, hdr, body := call(t, h, "GET", "/", nil)
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if ct := hdr.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff")
	}
	page := string(body)
	script := inline(t, page, "<script>", "</script>")
	style := inline(t, page, "<style>", "</style>")
	if strings.Count(page, "<script") != 2 || strings.Count(page, "<style") != 1 {
		t.Error("the page should have exactly one style, one config and one script element")
	}
	// The policy, directive by directive: nothing but the page's own
	// inline code and the page's own origin.
	csp := map[string][]string{}
	for _, d := range strings.Split(hdr.Get("Content-Security-Policy"), ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			csp[f[0]] = f[1:]
		}
	}
	want := map[string][]string{
		"default-src":     {"'none'"},
		"script-src":      {cspHash(script)},
		"style-src":       {cspHash(style)},
		"connect-src":     {"'self'"},
		"img-src":         {"'self'", "data:", "blob:"},
		"base-uri":        {"'none'"},
		"form-action":     {"'none'"},
		"frame-ancestors": {"'none'"},
	}
	for k, v := range want {
		if !slices.Equal(csp[k], v) {
			t.Errorf("CSP %s %v, want %v", k, csp[k], v)
		}
		delete(csp, k)
	}
	for k, v := range csp {
		t.Errorf("unexpected CSP directive %s %v", k, v)
	}
	// Computed independently: the SHA-256 of "a" in base64.
	if got := cspHash("a"); got != "'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs='" {
		t.Errorf("cspHash(a) = %s", got)
	}
	// The config is data the script reads (the example graphs hold IRIs),
	// never a reference: it must be the examples and the server's figures.
	conf := inline(t, page, `<script type="application/json" id="config">`, "</script>")
	var pc playgroundConfig
	if err := json.Unmarshal([]byte(conf), &pc); err != nil {
		t.Fatalf("config: %v", err)
	}
	if len(pc.Examples) != len(examples.Names()) || pc.Examples[0].Name != examples.Default {
		t.Errorf("config examples %d, first %q: want every embedded example, %s first", len(pc.Examples), pc.Examples[0].Name, examples.Default)
	}
	for _, ex := range pc.Examples {
		if b, err := examples.Read(ex.Name); err != nil || string(b) != ex.Text || ex.Syntax != "ttl" {
			t.Errorf("example %s differs from the embedded file (%v)", ex.Name, err)
		}
	}
	// json.Marshal escapes <, > and &: the data cannot end its element.
	if strings.ContainsAny(conf, "<>") {
		t.Error("the config holds < or >")
	}
	rest := strings.Replace(page, conf, "", 1)
	// No external sources: no URL other than the SVG namespace and the
	// reserved example.org of placeholders, no src or href attributes, no
	// CSS imports or url(), no inline handlers or style attributes.
	for _, m := range regexp.MustCompile(`(?i)https?://[a-z0-9.-]+[^"'\s)&]*`).FindAllString(rest, -1) {
		if m != "http://www.w3.org/2000/svg" && m != "http://example.org/" {
			t.Errorf("external URL %q in the page", m)
		}
	}
	if strings.Contains(style, "url(") || strings.Contains(style, "@import") {
		t.Error("the style sheet loads something")
	}
	if m := regexp.MustCompile(`(?i)<[^>]+\s(src|href|style|on[a-z]+)=`).FindString(page); m != "" {
		t.Errorf("attribute in %q", m)
	}
	if strings.Contains(page, "{{") {
		t.Error("a placeholder was left in the page")
	}
	// Only GET.
	if code, hdr, _ := call(t, h, "POST", "/", "x"); code != http.StatusMethodNotAllowed || hdr.Get("Allow") != "GET" {
		t.Errorf("POST /: %d, Allow %q", code, hdr.Get("Allow"))
	}
	if code, _, _ := call(t, h, "GET", "/nothing", nil); code != http.StatusNotFound {
		t.Errorf("GET /nothing: %d", code)
	}
}

// TestPlaygroundAPICalls parses the script for the API calls it makes and
// checks each is a route with that method, and that every /v1/ path in it
// is such a call.
func TestPlaygroundAPICalls(t *testing.T) {
	js, err := webAssets.ReadFile("web/app.js")
	if err != nil {
		t.Fatal(err)
	}
	src := string(js)
	routes := Routes()
	calls := map[string]string{} // path -> method
	for _, m := range regexp.MustCompile(`\bfetch\(\s*"([^"]+)"`).FindAllStringSubmatch(src, -1) {
		calls[m[1]] = "GET"
	}
	for _, m := range regexp.MustCompile(`\bpostJSON\(\s*"([^"]+)"`).FindAllStringSubmatch(src, -1) {
		calls[m[1]] = "POST"
	}
	// postJSON is the only POST: it calls fetch with method "POST".
	if !regexp.MustCompile(`async function postJSON\(path, payload\) \{\s*const resp = await fetch\(path, \{\s*method: "POST"`).MatchString(src) {
		t.Error("postJSON no longer POSTs its path")
	}
	if n := len(regexp.MustCompile(`\bfetch\(`).FindAllString(src, -1)); n != 2 {
		t.Errorf("%d fetch calls, the test knows 2 (the formats list and postJSON)", n)
	}
	for _, p := range regexp.MustCompile(`"(/v1/[^"]*)"`).FindAllStringSubmatch(src, -1) {
		if _, ok := calls[p[1]]; !ok {
			t.Errorf("path %s in the script is not a recognised call", p[1])
		}
	}
	want := []string{"GET /v1/formats", "POST /v1/serialize", "POST /v1/check"}
	got := make([]string, 0, len(calls))
	for p, m := range calls {
		got = append(got, m+" "+p)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	for _, c := range got {
		if !slices.Contains(routes, c) {
			t.Errorf("the script calls %s, which is not a route", c)
		}
	}
	t.Logf("playground API calls: %d, all routes", len(got))
}

// TestPlaygroundEmbedded checks the assets are embedded and all in the
// page, with the server's tokenizers in its configuration.
func TestPlaygroundEmbedded(t *testing.T) {
	h := New(Config{AllowedTokenizers: []string{"cl100k_base", "o200k_base"}, MaxRequestBytes: 12345})
	_, _, body := call(t, h, "GET", "/", nil)
	page := string(body)
	for _, name := range []string{"index.html", "style.css", "app.js"} {
		b, err := webAssets.ReadFile("web/" + name)
		if err != nil || len(b) < 500 {
			t.Fatalf("asset %s: %d bytes, %v", name, len(b), err)
		}
		if name != "index.html" && !strings.Contains(page, string(b)) {
			t.Errorf("%s is not in the page", name)
		}
	}
	conf := inline(t, page, `<script type="application/json" id="config">`, "</script>")
	p := decode[playgroundConfig](t, []byte(conf))
	if !slices.Equal(p.Tokenizers, []string{"cl100k_base", "o200k_base"}) || p.DefaultTokenizer != "o200k_base" ||
		p.MaxRequestBytes != 12345 || p.SPARQL || p.SPARQLEndpoints == nil || len(p.SPARQLEndpoints) != 0 {
		t.Errorf("config %+v", p)
	}
	if !strings.Contains(page, `<div class="row" id="source" hidden>`) {
		t.Error("the SPARQL source choice is not hidden by default")
	}
	// With SPARQL allowed, the page offers the endpoints; a hostile
	// prefix cannot end the config element.
	evil := "http://h/</script><script>alert(1)</script>"
	_, _, body = call(t, New(Config{AllowSPARQL: true, SPARQLEndpoints: []string{"http://h:8890/sparql", evil}}), "GET", "/", nil)
	conf = inline(t, string(body), `<script type="application/json" id="config">`, "</script>")
	p = decode[playgroundConfig](t, []byte(conf))
	if !p.SPARQL || !slices.Equal(p.SPARQLEndpoints, []string{"http://h:8890/sparql", evil}) {
		t.Errorf("config with SPARQL %+v", p)
	}
	// Each element id the script looks up is in the page.
	js, _ := webAssets.ReadFile("web/app.js")
	for _, m := range regexp.MustCompile(`\$\("([a-z]+)"\)`).FindAllStringSubmatch(string(js), -1) {
		if !strings.Contains(page, `id="`+m[1]+`"`) {
			t.Errorf("the script uses #%s, not in the page", m[1])
		}
	}
}
