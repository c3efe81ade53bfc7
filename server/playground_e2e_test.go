package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/formats"
	"github.com/isolda/isolda/internal/shared"
	"github.com/isolda/isolda/internal/webdriver"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
	"github.com/isolda/isolda/token"
)

// The end-to-end test of the playground (issue 12): the page served by the
// handler, driven in Debian's headless Chromium through chromedriver, as a
// user would: type a graph, pick formats and a tokenizer, click. The
// oracle of every figure the page shows is the Go API called directly
// (rdfio, formats, isolda, token), never the page or the HTTP API.

// browserTools returns the paths of chromium and chromedriver ($CHROMIUM
// and $CHROMEDRIVER override the PATH). When one is missing the test is
// skipped, unless ISOLDA_REQUIRE_BROWSER=1 (CI), where it fails.
func browserTools(t *testing.T) (chromium, chromedriver string) {
	t.Helper()
	find := func(env string, names ...string) string {
		if p := os.Getenv(env); p != "" {
			return p
		}
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		return ""
	}
	chromium = find("CHROMIUM", "chromium", "chromium-browser")
	chromedriver = find("CHROMEDRIVER", "chromedriver")
	if chromium != "" && chromedriver != "" {
		return chromium, chromedriver
	}
	msg := fmt.Sprintf("headless browser test needs chromium (found %q) and chromedriver (found %q): "+
		"apt-get install chromium chromium-driver", chromium, chromedriver)
	if os.Getenv("ISOLDA_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (ISOLDA_REQUIRE_BROWSER=1)")
	}
	t.Skip(msg + "; CI runs this test with ISOLDA_REQUIRE_BROWSER=1")
	return "", ""
}

// syncBuffer is a bytes.Buffer safe for the driver's output goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// e2e is the state of the browser test: one page, one session.
type e2e struct {
	t   *testing.T
	ctx context.Context
	s   *webdriver.Session
	// downloads is the browser's download folder.
	downloads string
	// toks are the oracle's tokenizers.
	toks *token.Registry
}

func (e *e2e) find(css string) *webdriver.Element {
	e.t.Helper()
	el, err := e.s.FindElement(e.ctx, css)
	if err != nil {
		e.t.Fatalf("%s: %v", css, err)
	}
	return el
}

func (e *e2e) findAll(css string) []*webdriver.Element {
	e.t.Helper()
	els, err := e.s.FindElements(e.ctx, css)
	if err != nil {
		e.t.Fatalf("%s: %v", css, err)
	}
	return els
}

// prop returns a DOM property as a string (textContent, value, ...).
func (e *e2e) prop(el *webdriver.Element, name string) string {
	e.t.Helper()
	var v string
	if err := el.Property(e.ctx, name, &v); err != nil {
		e.t.Fatalf("property %s: %v", name, err)
	}
	return v
}

func (e *e2e) text(el *webdriver.Element) string {
	e.t.Helper()
	s, err := el.Text(e.ctx)
	if err != nil {
		e.t.Fatalf("text: %v", err)
	}
	return s
}

func (e *e2e) click(el *webdriver.Element) {
	e.t.Helper()
	if err := el.Click(e.ctx); err != nil {
		e.t.Fatalf("click: %v", err)
	}
}

// consoleProblems returns the browser console entries logged since the
// last call that are warnings or errors, except those allowed matches.
func (e *e2e) consoleProblems(allowed *regexp.Regexp) []string {
	e.t.Helper()
	entries, err := e.s.Log(e.ctx, "browser")
	if err != nil {
		e.t.Fatalf("browser log: %v", err)
	}
	var out []string
	for _, en := range entries {
		if en.Level != "SEVERE" && en.Level != "WARNING" {
			continue
		}
		if allowed != nil && allowed.MatchString(en.Message) {
			continue
		}
		out = append(out, en.Level+" "+en.Source+": "+en.Message)
	}
	return out
}

// checkConsole fails the test for each console warning or error since
// the last call, except those allowed matches.
func (e *e2e) checkConsole(step string, allowed *regexp.Regexp) {
	e.t.Helper()
	for _, p := range e.consoleProblems(nil) {
		if allowed == nil || !allowed.MatchString(p) {
			e.t.Errorf("%s: browser console: %s", step, p)
		}
	}
}

// selectFormats checks exactly the named format boxes, by clicking.
func (e *e2e) selectFormats(names []string) {
	e.t.Helper()
	for _, cb := range e.findAll("#formats input[type=checkbox]") {
		name := e.prop(cb, "value")
		sel, err := cb.Selected(e.ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		if sel != slices.Contains(names, name) {
			e.click(cb)
		}
	}
	var got []string
	if err := e.s.ExecuteScript(e.ctx, `return [...document.querySelectorAll("#formats input:checked")].map((c) => c.value);`, &got); err != nil {
		e.t.Fatal(err)
	}
	if !slices.Equal(got, names) {
		e.t.Fatalf("checked formats %v, want %v", got, names)
	}
}

// selectTokenizer picks the tokenizer in its drop-down by clicking the
// option.
func (e *e2e) selectTokenizer(name string) {
	e.t.Helper()
	e.click(e.find(`#tokenizer option[value="` + name + `"]`))
	if got := e.prop(e.find("#tokenizer"), "value"); got != name {
		e.t.Fatalf("tokenizer %q selected, want %q", got, name)
	}
}

// typeGraph replaces the graph text area's content by typing text.
func (e *e2e) typeGraph(text string) {
	e.t.Helper()
	area := e.find("#graph")
	if err := area.Clear(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	if err := area.SendKeys(e.ctx, text); err != nil {
		e.t.Fatal(err)
	}
	if got := e.prop(area, "value"); got != text {
		e.t.Fatalf("the text area holds %d characters after typing, want the %d typed:\n%s", len(got), len(text), got)
	}
}

// run clicks Serialize and waits until the page is done: the button is
// enabled again and the status says how many formats were written.
func (e *e2e) run() (status string, isError bool) {
	e.t.Helper()
	// Mark the old status so that a stale one is not taken for the answer.
	if err := e.s.ExecuteScript(e.ctx, `document.getElementById("status").textContent = "";`, nil); err != nil {
		e.t.Fatal(err)
	}
	btn := e.find("#run")
	e.click(btn)
	done := regexp.MustCompile(`^\d+ formats written`)
	err := webdriver.WaitUntil(e.ctx, 30*time.Second, 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		var st struct {
			Text     string `json:"text"`
			Class    string `json:"class"`
			Disabled bool   `json:"disabled"`
		}
		err := e.s.ExecuteScript(ctx, `const s = document.getElementById("status");
			return {text: s.textContent, class: s.className, disabled: document.getElementById("run").disabled};`, &st)
		if err != nil {
			return false, err
		}
		status, isError = st.Text, st.Class == "error"
		return !st.Disabled && done.MatchString(st.Text), nil
	})
	if err != nil {
		e.t.Fatalf("waiting for the outputs: %v (status %q)", err, status)
	}
	return status, isError
}

// oracleRead reads a graph as the server does (rdfio, file name "graph", the
// server's default limits).
func oracleRead(data, format string) (*rdf.Dataset, error) {
	opts := rdfio.Options{}
	opts.File = "graph"
	opts.Limits = rdf.Limits{MaxQuads: DefaultMaxQuads, MaxBytes: DefaultMaxRequestBytes}
	if format != "" {
		f, err := rdfio.ParseFormat(format)
		if err != nil {
			return nil, err
		}
		opts.Format = f
	}
	return rdfio.Read(strings.NewReader(data), opts)
}

// metaRe reads a card's line of figures.
var metaRe = regexp.MustCompile(`^(\d+) tokens \(([^)]+)\), (\d+) bytes, (\d+) quads\s*$`)

// checkOutputs compares the page's cards, chart and round-trip line with
// the oracle for the graph d, the formats names and the tokenizer tokName.
func (e *e2e) checkOutputs(d *rdf.Dataset, names []string, tokName string) {
	t := e.t
	t.Helper()
	tok, err := e.toks.Get(tokName)
	if err != nil {
		t.Fatal(err)
	}
	in := formats.NewInput(d)
	cards := e.findAll("#outputs article.card")
	if len(cards) != len(names) {
		t.Fatalf("%d output cards, want %d (one per format)", len(cards), len(names))
	}
	want := map[string]int{} // format -> tokens, for the chart
	for i, name := range names {
		mismatches := 0
		fail := func(format string, args ...any) {
			t.Helper()
			mismatches++
			t.Errorf(format, args...)
		}
		card := cards[i]
		f, ok := formats.Get(name)
		if !ok {
			t.Fatalf("format %s not in the registry", name)
		}
		var b strings.Builder
		if err := f.Encode(&b, in); err != nil {
			t.Fatalf("oracle: %s: %v", name, err)
		}
		text := b.String()
		n := tok.Count(text)
		want[name] = n

		h2, err := card.FindElement(e.ctx, "h2 > span:first-child")
		if err != nil {
			t.Fatalf("card %d: %v", i, err)
		}
		if got := e.text(h2); got != name {
			fail("card %d is %q, want %q", i, got, name)
			continue
		}
		pre, err := card.FindElement(e.ctx, "pre")
		if err != nil {
			t.Fatalf("%s: no output text: %v", name, err)
		}
		if got := e.prop(pre, "textContent"); got != text {
			fail("%s: the page shows %d bytes that differ from the %d bytes of formats.Get(%q).Encode:\n%s",
				name, len(got), len(text), name, firstDiff(got, text))
		}
		meta, err := card.FindElement(e.ctx, ".meta")
		if err != nil {
			t.Fatalf("%s: no figures: %v", name, err)
		}
		m := metaRe.FindStringSubmatch(e.prop(meta, "textContent"))
		if m == nil {
			fail("%s: figures %q not understood", name, e.prop(meta, "textContent"))
		} else {
			if got, _ := strconv.Atoi(m[1]); got != n {
				fail("%s: the page counts %d tokens, %s counts %d", name, got, tokName, n)
			}
			if m[2] != tokName {
				fail("%s: counted with %s, want %s", name, m[2], tokName)
			}
			if got, _ := strconv.Atoi(m[3]); got != len(text) {
				fail("%s: the page says %d bytes, want %d", name, got, len(text))
			}
			if got, _ := strconv.Atoi(m[4]); got != d.Len() {
				fail("%s: the page says %d quads, want %d", name, got, d.Len())
			}
		}
		badge, err := card.FindElement(e.ctx, ".badge")
		if err != nil {
			t.Fatalf("%s: no lossless/lossy badge: %v", name, err)
		}
		wantBadge := "lossy"
		switch {
		case f.Lossless && f.Loses != "":
			wantBadge = "lossless*"
		case f.Lossless:
			wantBadge = "lossless"
		}
		if got := e.text(badge); got != wantBadge {
			fail("%s: badge %q, want %q (registry Lossless=%v)", name, got, wantBadge, f.Lossless)
		}
		btn, err := card.FindElement(e.ctx, "button")
		if err != nil {
			fail("%s: no download button: %v", name, err)
		} else if got := e.text(btn); got != "Download" {
			fail("%s: button %q, want Download", name, got)
		}
		verdict := "page = Go API"
		if mismatches > 0 {
			verdict = fmt.Sprintf("%d MISMATCHES", mismatches)
		}
		fmt.Printf("playground e2e: %-16s %6d tokens (%s) %6d bytes, %s: %s\n", name, n, tokName, len(text), wantBadge, verdict)
		t.Logf("%s: %d tokens (%s), %d bytes, %s: %s", name, n, tokName, len(text), wantBadge, verdict)
	}

	// Side by side: the first two cards share a row.
	if len(cards) >= 2 {
		var pos []float64
		err := e.s.ExecuteScript(e.ctx, `const a = arguments[0].getBoundingClientRect(), b = arguments[1].getBoundingClientRect();
			return [a.top, a.left, b.top, b.left];`, &pos, cards[0], cards[1])
		if err != nil {
			t.Fatal(err)
		}
		if pos[0] != pos[2] || pos[1] >= pos[3] {
			t.Errorf("the first two outputs are not side by side: (top, left) %v and %v", pos[:2], pos[2:])
		}
	}

	// The chart: one bar per format, its tooltip and number the count.
	bars := e.findAll("#chart svg rect")
	if len(bars) != len(names) {
		t.Errorf("the chart has %d bars, want %d (one per format)", len(bars), len(names))
	}
	for _, bar := range bars {
		title, err := bar.FindElement(e.ctx, "title")
		if err != nil {
			t.Errorf("bar without title: %v", err)
			continue
		}
		tt := e.prop(title, "textContent")
		name, count, ok := strings.Cut(strings.TrimSuffix(tt, " tokens"), ": ")
		n, err := strconv.Atoi(count)
		if !ok || err != nil {
			t.Errorf("bar title %q not understood", tt)
			continue
		}
		if w, ok := want[name]; !ok || w != n {
			t.Errorf("bar %q: %d tokens, want %d", name, n, w)
		}
	}
	var widths []float64
	if err := e.s.ExecuteScript(e.ctx, `return [...document.querySelectorAll("#chart svg rect")].map((r) => r.getBBox().width);`, &widths); err != nil {
		t.Fatal(err)
	}
	// Bars are drawn to scale: the longest is the format with most tokens.
	if len(widths) == len(names) {
		maxName, maxW := "", -1.0
		for i, w := range widths {
			if w > maxW {
				maxName, maxW = names[i], w
			}
		}
		for _, name := range names {
			if want[name] > want[maxName] {
				t.Errorf("the longest bar is %s (%d tokens), but %s has %d", maxName, want[maxName], name, want[name])
			}
		}
	}

	// The ISOLDA round trip, against isolda.Check.
	res, err := isolda.Check(d, isolda.Options{Version: isolda.V02})
	if err != nil {
		t.Fatal(err)
	}
	rt := e.find("#roundtrip p")
	got, class := e.text(rt), e.prop(rt, "className")
	if res.Isomorphic {
		if got != "ISOLDA round trip: the decoded document is the same graph." || class != "ok" {
			t.Errorf("round trip shown as %q (class %q); isolda.Check says isomorphic", got, class)
		}
	} else if !strings.Contains(got, "triples missing") || class != "error" {
		t.Errorf("round trip shown as %q (class %q); isolda.Check says not isomorphic (%d missing, %d extra)",
			got, class, len(res.Missing), len(res.Extra))
	}
	fmt.Printf("playground e2e: ISOLDA round trip shown %q, isolda.Check isomorphic=%v\n", got, res.Isomorphic)
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	return fmt.Sprintf("at byte %d: page %q, want %q", i, a[lo:min(len(a), i+40)], b[lo:min(len(b), i+40)])
}

// checkDownload clicks the Download button of card i and compares the
// file the browser saves with want.
func (e *e2e) checkDownload(i int, file, want string) {
	t := e.t
	t.Helper()
	cards := e.findAll("#outputs article.card")
	btn, err := cards[i].FindElement(e.ctx, "button")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(e.downloads, file)
	os.Remove(path)
	e.click(btn)
	var got []byte
	err = webdriver.WaitUntil(e.ctx, 10*time.Second, 50*time.Millisecond, func(context.Context) (bool, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return false, nil
		}
		got = b
		return len(b) == len(want), nil
	})
	if err != nil {
		ents, _ := os.ReadDir(e.downloads)
		var names []string
		for _, en := range ents {
			names = append(names, en.Name())
		}
		t.Errorf("download %s: %v (folder holds %v, %d bytes read)", file, err, names, len(got))
		return
	}
	if string(got) != want {
		t.Errorf("download %s differs from the oracle: %s", file, firstDiff(string(got), want))
	}
	fmt.Printf("playground e2e: download %s: %d bytes = Go API\n", file, len(got))
}

// saveScreenshot writes a PNG of the page to $ISOLDA_SCREENSHOT_DIR (else
// the system's temporary folder) and checks it decodes to a sensible image.
func (e *e2e) saveScreenshot(name string) {
	t := e.t
	t.Helper()
	if err := e.s.ExecuteScript(e.ctx, `window.scrollTo(0, 0);`, nil); err != nil {
		t.Fatal(err)
	}
	b, err := e.s.Screenshot(e.ctx)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	bounds := img.Bounds()
	if bounds.Dx() < 800 || bounds.Dy() < 600 {
		t.Errorf("screenshot is %dx%d, want at least 800x600", bounds.Dx(), bounds.Dy())
	}
	if colors := distinctColors(img, 64); colors < 16 {
		t.Errorf("screenshot has %d distinct colours, a rendered page has many", colors)
	}
	dir := os.Getenv("ISOLDA_SCREENSHOT_DIR")
	var f *os.File
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		f, err = os.Create(filepath.Join(dir, name+".png"))
	} else {
		f, err = os.CreateTemp("", name+"-*.png")
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%dx%d, %d bytes)", f.Name(), bounds.Dx(), bounds.Dy(), len(b))
	fmt.Printf("playground e2e: screenshot %s (%dx%d)\n", f.Name(), bounds.Dx(), bounds.Dy())
}

// distinctColors counts the colours of a sample of img's pixels, up to
// limit.
func distinctColors(img image.Image, limit int) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// TestPlaygroundInBrowser loads the playground in headless Chromium, types a
// graph, picks three formats and a tokenizer, clicks Serialize and checks
// what the page shows against the Go API; then a broken graph (the error
// names its line and column) and an HTML page with JSON-LD uploaded through
// the file input. The browser console must stay free of errors (a CSP
// violation would show there).
func TestPlaygroundInBrowser(t *testing.T) {
	chromium, chromedriver := browserTools(t)

	// End everything before the test binary's own deadline.
	timeout := 90 * time.Second
	if dl, ok := t.Deadline(); ok && time.Until(dl)-10*time.Second < timeout {
		timeout = time.Until(dl) - 10*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	srv := httptest.NewServer(New(Config{AllowedTokenizers: []string{token.O200KBase, token.CL100KBase}}))
	defer srv.Close()

	var driverLog syncBuffer
	d, err := webdriver.Start(ctx, webdriver.DriverOptions{Path: chromedriver, Log: &driverLog})
	if err != nil {
		t.Fatalf("chromedriver: %v\n%s", err, driverLog.String())
	}
	defer func() {
		if err := d.Stop(); err != nil {
			t.Error(err)
		}
	}()
	downloads := t.TempDir()
	s, err := d.NewSession(ctx, webdriver.SessionOptions{
		Chrome: &webdriver.ChromeOptions{
			Binary: chromium,
			Args: append(webdriver.HeadlessChromiumArgs(), "--user-data-dir="+t.TempDir(),
				"--window-size=1280,1600", "--disable-crash-reporter"),
			Prefs: map[string]any{"download.default_directory": downloads, "download.prompt_for_download": false},
		},
		BrowserLog: true,
	})
	if err != nil {
		t.Fatalf("new session: %v\n%s", err, driverLog.String())
	}
	defer func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer dcancel()
		if err := s.Delete(dctx); err != nil {
			t.Logf("delete session: %v", err)
		}
	}()
	e := &e2e{t: t, ctx: ctx, s: s, downloads: downloads, toks: token.NewRegistry(token.Options{})}
	start := time.Now()

	if err := s.Navigate(ctx, srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	if title, err := s.Title(ctx); err != nil || title != "isolda playground" {
		t.Errorf("title %q (%v)", title, err)
	}
	// The page lists the registry's formats once GET /v1/formats answers.
	all := formats.Names()
	err = webdriver.WaitUntil(ctx, 10*time.Second, 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		els, err := s.FindElements(ctx, "#formats input[type=checkbox]")
		return len(els) == len(all), err
	})
	if err != nil {
		t.Fatalf("the format list did not load: %v", err)
	}
	var listed []string
	if err := s.ExecuteScript(ctx, `return [...document.querySelectorAll("#formats input")].map((c) => c.value);`, &listed); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed, all) {
		t.Errorf("the page lists formats %v, the registry %v", listed, all)
	}
	var tokenizers []string
	if err := s.ExecuteScript(ctx, `return [...document.querySelectorAll("#tokenizer option")].map((o) => o.value);`, &tokenizers); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tokenizers, []string{token.CL100KBase, token.O200KBase}) {
		t.Errorf("tokenizers offered %v", tokenizers)
	}
	e.checkConsole("page load", nil)

	// 1. A real graph, typed; ISOLDA, Turtle and a lossy format; cl100k_base.
	lossy := "entity_centric"
	if f, ok := formats.Get(lossy); !ok || f.Lossless {
		t.Fatalf("%s should be a lossy registry format", lossy)
	}
	names := []string{"turtle", lossy, "isolda"}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(all, a) - slices.Index(all, b) })
	demo, err := examples.Read(examples.Default)
	if err != nil {
		t.Fatal(err)
	}
	dd, err := oracleRead(string(demo), "")
	if err != nil {
		t.Fatal(err)
	}
	e.typeGraph(string(demo))
	e.selectFormats(names)
	e.selectTokenizer(token.CL100KBase)
	status, isErr := e.run()
	if isErr || status != fmt.Sprintf("%d formats written", len(names)) {
		t.Errorf("status %q (error %v)", status, isErr)
	}
	e.checkOutputs(dd, names, token.CL100KBase)
	isoldaText, err := formats.EncodeString("isolda", formats.NewInput(dd))
	if err != nil {
		t.Fatal(err)
	}
	turtleText, err := formats.EncodeString("turtle", formats.NewInput(dd))
	if err != nil {
		t.Fatal(err)
	}
	e.checkDownload(slices.Index(names, "isolda"), "graph.txt", isoldaText)
	e.checkDownload(slices.Index(names, "turtle"), "graph.ttl", turtleText)
	// Offline, no CDN: every resource the page loaded came from the server,
	// and only from the API (besides the browser's own favicon request).
	var resources []string
	if err := s.ExecuteScript(ctx, `return performance.getEntriesByType("resource").map((r) => r.name);`, &resources); err != nil {
		t.Fatal(err)
	}
	if len(resources) == 0 {
		t.Error("the page made no API request at all")
	}
	for _, r := range resources {
		if !strings.HasPrefix(r, srv.URL+"/v1/") && r != srv.URL+"/favicon.ico" {
			t.Errorf("the page loaded %s, which is not an API call of its server", r)
		}
	}
	fmt.Printf("playground e2e: %d resources loaded, all from %s/v1/ or its favicon\n", len(resources), srv.URL)
	e.saveScreenshot("isolda-playground")
	e.checkConsole("serialize "+examples.Default, nil)

	// 2. A broken graph: every card and the round trip say where.
	broken := "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:d ex:e \"unterminated .\n"
	_, perr := oracleRead(broken, "")
	var pe *rdf.ParseError
	if !errors.As(perr, &pe) || pe.Line == 0 {
		t.Fatalf("the oracle should reject the broken graph with a position: %v", perr)
	}
	where := fmt.Sprintf("(line %d, column %d)", pe.Line, pe.Column)
	e.typeGraph(broken)
	status, isErr = e.run()
	if !isErr || status != fmt.Sprintf("0 formats written, %d failed", len(names)) {
		t.Errorf("broken graph: status %q (error %v)", status, isErr)
	}
	named := 0
	for i, p := range e.findAll("#outputs article.card p.error") {
		msg := e.text(p)
		if !strings.Contains(msg, where) || !strings.Contains(msg, pe.Msg) {
			t.Errorf("broken graph, card %d: %q does not say %q %s", i, msg, pe.Msg, where)
		} else {
			named++
		}
	}
	if n := len(e.findAll("#outputs article.card p.error")); n != len(names) {
		t.Errorf("broken graph: %d error cards, want %d", n, len(names))
	}
	if rt := e.text(e.find("#roundtrip p")); !strings.HasPrefix(rt, "ISOLDA round trip: graph: ") || !strings.Contains(rt, where) {
		t.Errorf("broken graph: round trip says %q, want the error %s", rt, where)
	}
	if n := len(e.findAll("#chart rect")); n != 0 {
		t.Errorf("broken graph: the chart still has %d bars", n)
	}
	fmt.Printf("playground e2e: broken graph: %d of %d error cards say %q %s, as rdfio does\n", named, len(names), pe.Msg, where)
	// The API's 400 answers are logged as failed loads; nothing else may be.
	e.checkConsole("broken graph", regexp.MustCompile(`/v1/(serialize|check) - Failed to load resource: the server responded with a status of 400`))

	// 3. An HTML page with JSON-LD, uploaded through the file input.
	htmlPath := shared.MustPath(t, "data", "examples", "html-schemaorg-songkick-years-and-years-tour-events.html")
	htmlData, err := os.ReadFile(htmlPath)
	if err != nil {
		t.Fatal(err)
	}
	// A text area's value has its newlines normalized (CR LF and CR become
	// LF, HTML §4.10.11): that is the text the page sends.
	htmlText := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(htmlData))
	hd, err := oracleRead(htmlText, "html")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.find("#file").SendKeys(ctx, htmlPath); err != nil {
		t.Fatal(err)
	}
	err = webdriver.WaitUntil(ctx, 10*time.Second, 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		var st string
		err := s.ExecuteScript(ctx, `return document.getElementById("status").textContent;`, &st)
		return st == "loaded "+filepath.Base(htmlPath), err
	})
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	if got := e.prop(e.find("#syntax"), "value"); got != "html" {
		t.Errorf("upload of %s: syntax %q, want html", filepath.Base(htmlPath), got)
	}
	if got := e.prop(e.find("#graph"), "value"); got != htmlText {
		t.Errorf("upload: the text area holds %d bytes, the file %d (%d with newlines normalized): %s",
			len(got), len(htmlData), len(htmlText), firstDiff(got, htmlText))
	}
	e.selectTokenizer(token.O200KBase)
	status, isErr = e.run()
	if isErr || status != fmt.Sprintf("%d formats written", len(names)) {
		t.Errorf("HTML page: status %q (error %v)", status, isErr)
	}
	e.checkOutputs(hd, names, token.O200KBase)
	fmt.Printf("playground e2e: HTML page with JSON-LD (%s): %d quads\n", filepath.Base(htmlPath), hd.Len())
	e.saveScreenshot("isolda-playground-html")
	e.checkConsole("HTML page", nil)

	// 4. A positive control of the console check: an image from another
	// origin (a reserved documentation address) must be refused by the
	// page's Content-Security-Policy, and the refusal must reach the log.
	var violation string
	err = s.ExecuteScript(ctx, `return new Promise((resolve) => {
		document.addEventListener("securitypolicyviolation", (ev) => resolve(ev.effectiveDirective + " " + ev.blockedURI), {once: true});
		const img = new Image();
		img.src = "http://192.0.2.1/probe.png";
		document.body.append(img);
		setTimeout(() => resolve("no violation"), 5000);
	});`, &violation)
	if err != nil {
		t.Fatal(err)
	}
	if violation != "img-src http://192.0.2.1/probe.png" {
		t.Errorf("CSP probe: %q, want the img-src directive to refuse the image", violation)
	}
	// Chromium's wording: "Loading the image '...' violates the following
	// Content Security Policy directive" (older: "Refused to load").
	refused := regexp.MustCompile(`(Refused to load|Loading) the image 'http://192\.0\.2\.1/probe\.png'.*Content Security Policy`)
	var seen bool
	err = webdriver.WaitUntil(ctx, 5*time.Second, 100*time.Millisecond, func(context.Context) (bool, error) {
		for _, p := range e.consoleProblems(nil) {
			if refused.MatchString(p) {
				seen = true
			} else {
				t.Errorf("CSP probe: unexpected console entry %s", p)
			}
		}
		return seen, nil
	})
	if err != nil {
		t.Errorf("CSP probe: the refusal did not reach the console log: %v", err)
	}
	fmt.Printf("playground e2e: CSP probe: %s refused, and logged=%v\n", violation, seen)

	fmt.Printf("playground e2e: done in %v\n", time.Since(start).Round(time.Millisecond))
	t.Logf("browser steps took %v", time.Since(start).Round(time.Millisecond))
}
