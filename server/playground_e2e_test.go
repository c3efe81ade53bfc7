package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
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
	"github.com/isolda/isolda/internal/testkit/shared"
	"github.com/isolda/isolda/internal/testkit/webdriver"
	"github.com/isolda/isolda/internal/testkit/webdriver/browsertest"
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

// e2e is the state of the browser test: one page, one session.
type e2e struct {
	*browsertest.Browser
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

// findIn returns the first element matching css within el.
func (e *e2e) findIn(el *webdriver.Element, css string) *webdriver.Element {
	e.t.Helper()
	found, err := el.FindElement(e.ctx, css)
	if err != nil {
		e.t.Fatalf("%s: %v", css, err)
	}
	return found
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

// selectFormats checks exactly the named format boxes, by clicking.
func (e *e2e) selectFormats(names []string) {
	e.t.Helper()
	for _, cb := range e.findAll("#format-groups input[type=checkbox]") {
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
	if err := e.s.ExecuteScript(e.ctx, `return [...document.querySelectorAll("#format-groups input:checked")].map((c) => c.value);`, &got); err != nil {
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

// oracleText is the text the Go API writes for a format: formats.Get's
// encoder, or for the ISOLDA formats isolda.Encode with the options the
// page sent (nil: none, as the server defaults them).
func oracleText(t *testing.T, d *rdf.Dataset, name string, opts *isolda.Options) string {
	t.Helper()
	var b strings.Builder
	if opts != nil && (name == "isolda" || strings.HasPrefix(name, "isolda-")) {
		if err := isolda.Encode(&b, d, *opts); err != nil {
			t.Fatalf("oracle: %s: %v", name, err)
		}
		return b.String()
	}
	f, ok := formats.Get(name)
	if !ok {
		t.Fatalf("format %s not in the registry", name)
	}
	if err := f.Encode(&b, formats.NewInput(d)); err != nil {
		t.Fatalf("oracle: %s: %v", name, err)
	}
	return b.String()
}

// checkOutputs compares the page's cards, chart and round-trip line with
// the oracle for the graph d, the formats names and the tokenizer tokName;
// opts are the ISOLDA options the page sent (nil: none).
func (e *e2e) checkOutputs(d *rdf.Dataset, names []string, tokName string, opts *isolda.Options) {
	t := e.t
	t.Helper()
	tok, err := e.toks.Get(tokName)
	if err != nil {
		t.Fatal(err)
	}
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
		f, _ := formats.Get(name)
		text := oracleText(t, d, name, opts)
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
			fail("%s: the page shows %d bytes that differ from the %d bytes of the Go API:\n%s",
				name, len(got), len(text), firstDiff(got, text))
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
		t.Logf("playground e2e: %-20s %6d tokens (%s) %6d bytes, %s: %s", name, n, tokName, len(text), wantBadge, verdict)
	}
	e.checkChart(want)

	// The ISOLDA round trip, against isolda.Check with the same options.
	o := isolda.Options{Version: isolda.V02}
	if opts != nil {
		o = *opts
	}
	res, err := isolda.Check(d, o)
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
	t.Logf("playground e2e: ISOLDA round trip shown %q, isolda.Check isomorphic=%v", got, res.Isomorphic)
}

// checkChart checks the chart against the oracle's token counts: one bar
// per format that wrote something, fewest tokens first (ties by name), each
// titled with its count and drawn to scale; the formats that wrote
// nothing named under it.
func (e *e2e) checkChart(want map[string]int) {
	t := e.t
	t.Helper()
	var order, empty []string
	for name, n := range want {
		if n > 0 {
			order = append(order, name)
		} else {
			empty = append(empty, name)
		}
	}
	slices.SortFunc(order, func(a, b string) int { return cmp.Or(cmp.Compare(want[a], want[b]), strings.Compare(a, b)) })
	slices.Sort(empty)
	var bars []struct {
		Title string  `json:"title"`
		Label string  `json:"label"`
		Width float64 `json:"width"`
	}
	if err := e.s.ExecuteScript(e.ctx, `return [...document.querySelectorAll("#chart .bars svg rect")].map((r) => ({
		title: r.querySelector("title").textContent, width: r.getBBox().width,
		label: r.closest("svg").previousElementSibling.textContent}));`, &bars); err != nil {
		t.Fatal(err)
	}
	var got []string
	maxN := want[order[len(order)-1]]
	for _, b := range bars {
		name, count, ok := strings.Cut(strings.TrimSuffix(b.Title, " tokens"), ": ")
		n, err := strconv.Atoi(count)
		if !ok || err != nil || b.Label != name {
			t.Errorf("bar %q labelled %q not understood", b.Title, b.Label)
			continue
		}
		got = append(got, name)
		if w, ok := want[name]; !ok || w != n {
			t.Errorf("bar %q: %d tokens, want %d", name, n, w)
		}
		if scale := 100 * float64(n) / float64(maxN); math.Abs(b.Width-scale) > 0.01 {
			t.Errorf("bar %q is %.3f long, %.3f to scale", name, b.Width, scale)
		}
	}
	if !slices.Equal(got, order) {
		t.Errorf("chart bars %v, want %v (fewest tokens first, none for an empty text)", got, order)
	}
	note := ""
	if len(empty) > 0 {
		note = e.text(e.find("#chart p.hint"))
		if note != "No text, no bar: "+strings.Join(empty, ", ")+"." {
			t.Errorf("chart note %q, want the formats %v that wrote nothing", note, empty)
		}
	}
	t.Logf("playground e2e: chart %v (fewest tokens first) %s", got, note)
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
	t.Logf("playground e2e: download %s: %d bytes = Go API", file, len(got))
}

// pick selects the option with the given value of a drop-down by
// clicking it.
func (e *e2e) pick(id, value string) {
	e.t.Helper()
	e.click(e.find("#" + id + ` option[value="` + value + `"]`))
	if got := e.prop(e.find("#"+id), "value"); got != value {
		e.t.Fatalf("#%s: %q selected, want %q", id, got, value)
	}
}

// setInput replaces the value of a text or number input by typing.
func (e *e2e) setInput(id, value string) {
	e.t.Helper()
	in := e.find("#" + id)
	if err := in.Clear(e.ctx); err != nil {
		e.t.Fatal(err)
	}
	if value != "" {
		if err := in.SendKeys(e.ctx, value); err != nil {
			e.t.Fatal(err)
		}
	}
}

// optionNames records the names of the ISOLDA options of the requests a
// handler gets.
type optionNames struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (o *optionNames) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			var req struct {
				Options map[string]json.RawMessage `json:"options"`
			}
			if json.Unmarshal(body, &req) == nil {
				o.mu.Lock()
				if o.seen == nil {
					o.seen = map[string]bool{}
				}
				for k := range req.Options {
					o.seen[k] = true
				}
				o.mu.Unlock()
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		h.ServeHTTP(w, r)
	})
}

// names returns the option names seen, sorted.
func (o *optionNames) names() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Sorted(maps.Keys(o.seen))
}

// serializeCalls counts the POST /v1/serialize requests the page made.
func (e *e2e) serializeCalls() int {
	var n int
	e.Script(`return performance.getEntriesByType("resource").filter((r) => r.name.endsWith("/v1/serialize")).length;`, &n)
	return n
}

// TestPlaygroundInBrowser loads the playground in headless Chromium and
// uses it as a person would, checking what the page shows against the Go
// API: the format list (lossless, then lossy, each sorted); an example
// loaded by its button and serialized in four formats (the chart sorted by
// tokens, no bar for a format that wrote nothing); the ISOLDA options and
// a token budget; a broken graph (its error shown once, with line and
// column, after one request); an HTML page with JSON-LD uploaded through
// the file input. At 1280×800 and 400×800 the page must not scroll
// sideways nor cut any text; screenshots go to $ISOLDA_SCREENSHOT_DIR.
// The browser console must stay free of errors (a CSP violation would show
// there).
func TestPlaygroundInBrowser(t *testing.T) {
	downloads := t.TempDir()
	b := browsertest.Start(t, browsertest.Options{
		Prefs: map[string]any{"download.default_directory": downloads, "download.prompt_for_download": false}})
	sent := &optionNames{}
	srv := httptest.NewServer(sent.wrap(New(Config{AllowedTokenizers: []string{token.O200KBase, token.CL100KBase}})))
	defer srv.Close()
	e := &e2e{Browser: b, t: t, ctx: b.Ctx, s: b.S, downloads: downloads, toks: token.NewRegistry(token.Options{})}
	ctx, s := b.Ctx, b.S
	start := time.Now()

	b.SetViewport(1280, 800)
	b.Navigate(srv.URL + "/")
	if title, err := s.Title(ctx); err != nil || title != "isolda playground" {
		t.Errorf("title %q (%v)", title, err)
	}
	// The page lists the registry's formats once GET /v1/formats answers:
	// the lossless ones, then the lossy ones, each sorted by name.
	all := formats.Names()
	err := webdriver.WaitUntil(ctx, 10*time.Second, 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		els, err := s.FindElements(ctx, "#format-groups input[type=checkbox]")
		return len(els) == len(all), err
	})
	if err != nil {
		t.Fatalf("the format list did not load: %v", err)
	}
	var lossless, lossy []string
	for _, n := range all {
		if f, _ := formats.Get(n); f.Lossless {
			lossless = append(lossless, n)
		} else {
			lossy = append(lossy, n)
		}
	}
	slices.Sort(lossless)
	slices.Sort(lossy)
	var listed, legends []string
	b.Script(`return [...document.querySelectorAll("#format-groups input")].map((c) => c.value);`, &listed)
	b.Script(`return [...document.querySelectorAll("#format-groups legend")].map((l) => l.textContent);`, &legends)
	if want := append(slices.Clone(lossless), lossy...); !slices.Equal(listed, want) {
		t.Errorf("the page lists formats\n%v\nwant lossless then lossy, sorted:\n%v", listed, want)
	}
	if want := []string{fmt.Sprintf("Lossless (%d)", len(lossless)), fmt.Sprintf("Lossy (%d)", len(lossy))}; !slices.Equal(legends, want) {
		t.Errorf("format groups %q, want %q", legends, want)
	}
	// "all" ticks every box of its group.
	e.click(e.find("fieldset.format-group:nth-of-type(2) button.link"))
	var ticked int
	b.Script(`return document.querySelectorAll("fieldset.format-group:nth-of-type(2) input:checked").length;`, &ticked)
	if ticked != len(lossy) {
		t.Errorf("after clicking all, %d of %d lossy formats ticked", ticked, len(lossy))
	}
	var tokenizers []string
	b.Script(`return [...document.querySelectorAll("#tokenizer option")].map((o) => o.value);`, &tokenizers)
	if !slices.Equal(tokenizers, []string{token.CL100KBase, token.O200KBase}) {
		t.Errorf("tokenizers offered %v", tokenizers)
	}
	b.CheckConsole("page load", nil)
	b.CheckLayout("page load 1280x800")

	// 1. The demo graph, loaded by the example button; ISOLDA, Turtle, a
	// lossy format and one that writes nothing on this graph.
	demo, err := examples.Read(examples.Default)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.prop(e.find("#example"), "value"); got != examples.Default {
		t.Errorf("example %q offered first, want %s", got, examples.Default)
	}
	e.click(e.find("#load-example"))
	if got := e.prop(e.find("#graph"), "value"); got != string(demo) {
		t.Errorf("the example loaded %d bytes, %s has %d", len(got), examples.Default, len(demo))
	}
	if got := e.prop(e.find("#syntax"), "value"); got != "ttl" {
		t.Errorf("example syntax %q, want ttl", got)
	}
	dd, err := oracleRead(string(demo), "ttl")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"turtle", "entity_centric", "isolda", "onto_entity_centric"}
	if oracleText(t, dd, "onto_entity_centric", nil) != "" || oracleText(t, dd, "entity_centric", nil) == "" {
		t.Fatal("onto_entity_centric should write nothing on the demo graph, entity_centric something")
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(listed, a) - slices.Index(listed, b) })
	e.selectFormats(names)
	e.selectTokenizer(token.CL100KBase)
	status, isErr := e.run()
	if isErr || status != fmt.Sprintf("%d formats written", len(names)) {
		t.Errorf("status %q (error %v)", status, isErr)
	}
	e.checkOutputs(dd, names, token.CL100KBase, nil)
	e.checkDownload(slices.Index(names, "isolda"), "graph.txt", oracleText(t, dd, "isolda", nil))
	e.checkDownload(slices.Index(names, "turtle"), "graph.ttl", oracleText(t, dd, "turtle", nil))
	// Offline, no CDN: every resource the page loaded came from the server,
	// and only from the API (besides the browser's own favicon request).
	var resources []string
	b.Script(`return performance.getEntriesByType("resource").map((r) => r.name);`, &resources)
	if len(resources) == 0 {
		t.Error("the page made no API request at all")
	}
	for _, r := range resources {
		if !strings.HasPrefix(r, srv.URL+"/v1/") && r != srv.URL+"/favicon.ico" {
			t.Errorf("the page loaded %s, which is not an API call of its server", r)
		}
	}
	t.Logf("playground e2e: %d resources loaded, all from %s/v1/ or its favicon", len(resources), srv.URL)
	for _, vp := range [][2]int{{1280, 800}, {400, 800}} {
		size := fmt.Sprintf("%dx%d", vp[0], vp[1])
		b.SetViewport(vp[0], vp[1])
		b.CheckLayout("results " + size)
		b.Screenshot("playground-" + size)
	}
	b.SetViewport(1280, 800)
	b.CheckConsole("serialize "+examples.Default, nil)

	// 2. ISOLDA options (spec 0.3, a legend glossary, inline blank nodes)
	// and then a token budget.
	e.click(e.find("#isolda-options summary"))
	e.pick("opt-spec", isolda.V03)
	e.pick("opt-glossary", isolda.GlossaryLegend)
	e.click(e.find("#opt-inline_bnodes"))
	names = []string{"isolda", "turtle"}
	e.selectFormats(names)
	status, isErr = e.run()
	if isErr || status != "2 formats written" {
		t.Errorf("options: status %q (error %v)", status, isErr)
	}
	opts := &isolda.Options{Version: isolda.V03, Glossary: isolda.GlossaryLegend, InlineBlanks: true}
	if oracleText(t, dd, "isolda", opts) == oracleText(t, dd, "isolda", nil) {
		t.Fatal("the options change nothing on the demo graph: a useless test")
	}
	e.checkOutputs(dd, names, token.CL100KBase, opts)
	b.CheckLayout("options open 1280x800")
	b.Screenshot("playground-options-1280x800")
	tok, _ := e.toks.Get(token.CL100KBase)
	full := tok.Count(oracleText(t, dd, "isolda", opts))
	budget := full / 2
	e.setInput("budget", strconv.Itoa(budget))
	status, isErr = e.run()
	if isErr || status != "2 formats written" {
		t.Errorf("budget: status %q (error %v)", status, isErr)
	}
	for i, card := range e.findAll("#outputs article.card") {
		pre, err := card.FindElement(ctx, "pre")
		if err != nil {
			t.Fatal(err)
		}
		text := e.prop(pre, "textContent")
		m := metaRe.FindStringSubmatch(e.prop(e.findIn(card, ".meta"), "textContent"))
		cut := e.text(e.findIn(card, ".meta.cut"))
		if n := tok.Count(text); m == nil || m[1] != strconv.Itoa(n) || n > budget || !strings.HasPrefix(cut, "cut to the budget: ") {
			t.Errorf("%s with a budget of %d: %d tokens shown (figures %q, %q)", names[i], budget, n, m, cut)
		}
		if badges := e.text(e.findIn(card, ".badges")); !strings.HasSuffix(badges, "cut") {
			t.Errorf("%s: badges %q, want a cut badge", names[i], badges)
		}
		t.Logf("playground e2e: %s cut to %d tokens (budget %d of %d): %s", names[i], tok.Count(text), budget, full, cut)
	}
	// The page spells the options as the CLI's flags, not with the
	// deprecated API names.
	if got := sent.names(); !slices.Contains(got, "spec") || !slices.Contains(got, "inline_bnodes") ||
		slices.Contains(got, "version") || slices.Contains(got, "inline_blanks") {
		t.Errorf("options sent by the page: %v, want spec and inline_bnodes, never version or inline_blanks", got)
	}
	// Back to no budget and no options.
	e.setInput("budget", "")
	e.pick("opt-spec", "")
	e.pick("opt-glossary", "")
	e.click(e.find("#opt-inline_bnodes"))
	b.CheckConsole("options and budget", nil)

	// 3. A broken graph: the error, with its line and column, once, after
	// one request.
	broken := "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:d ex:e \"unterminated .\n"
	_, perr := oracleRead(broken, "ttl")
	var pe *rdf.ParseError
	if !errors.As(perr, &pe) || pe.Line == 0 {
		t.Fatalf("the oracle should reject the broken graph with a position: %v", perr)
	}
	where := fmt.Sprintf("(line %d, column %d)", pe.Line, pe.Column)
	names = []string{"turtle", "entity_centric", "isolda"}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(listed, a) - slices.Index(listed, b) })
	e.selectFormats(names)
	e.typeGraph(broken)
	calls := e.serializeCalls()
	status, isErr = e.run()
	if !isErr || status != "0 formats written: the graph could not be read" {
		t.Errorf("broken graph: status %q (error %v)", status, isErr)
	}
	if n := e.serializeCalls() - calls; n != 1 {
		t.Errorf("broken graph: %d serialize requests, want 1 (the graph error is the same for every format)", n)
	}
	errs := e.findAll("#outputs .error")
	if len(errs) != 1 || len(e.findAll("#outputs article.card")) != 1 {
		t.Errorf("broken graph: %d error messages in %d cards, want the error once", len(errs), len(e.findAll("#outputs article.card")))
	}
	for _, p := range errs {
		if msg := e.text(p); !strings.Contains(msg, where) || !strings.Contains(msg, pe.Msg) {
			t.Errorf("broken graph: %q does not say %q %s", msg, pe.Msg, where)
		}
	}
	var left int
	b.Script(`return document.querySelectorAll("#roundtrip *, #chart *").length;`, &left)
	if left != 0 {
		t.Errorf("broken graph: %d elements left in the chart and round trip", left)
	}
	t.Logf("playground e2e: broken graph: the error %q %s shown once, after 1 request", pe.Msg, where)
	b.CheckLayout("broken graph 1280x800")
	// The API's 400 answer is logged as a failed load; nothing else may be.
	b.CheckConsole("broken graph", regexp.MustCompile(`/v1/serialize - Failed to load resource: the server responded with a status of 400`))

	// 4. An HTML page with JSON-LD, uploaded through the file input.
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
	e.checkOutputs(hd, names, token.O200KBase, nil)
	t.Logf("playground e2e: HTML page with JSON-LD (%s): %d quads", filepath.Base(htmlPath), hd.Len())
	b.SetViewport(400, 800)
	b.CheckLayout("HTML page 400x800")
	b.Screenshot("playground-html-400x800")
	b.SetViewport(1280, 800)
	b.CheckConsole("HTML page", nil)

	// 5. A positive control of the console check: an image from another
	// origin (a reserved documentation address) must be refused by the
	// page's Content-Security-Policy, and the refusal must reach the log.
	var violation string
	b.Script(`return new Promise((resolve) => {
		document.addEventListener("securitypolicyviolation", (ev) => resolve(ev.effectiveDirective + " " + ev.blockedURI), {once: true});
		const img = new Image();
		img.src = "http://192.0.2.1/probe.png";
		document.body.append(img);
		setTimeout(() => resolve("no violation"), 5000);
	});`, &violation)
	if violation != "img-src http://192.0.2.1/probe.png" {
		t.Errorf("CSP probe: %q, want the img-src directive to refuse the image", violation)
	}
	// Chromium's wording: "Loading the image '...' violates the following
	// Content Security Policy directive" (older: "Refused to load").
	refused := regexp.MustCompile(`(Refused to load|Loading) the image 'http://192\.0\.2\.1/probe\.png'.*Content Security Policy`)
	var seen bool
	err = webdriver.WaitUntil(ctx, 5*time.Second, 100*time.Millisecond, func(context.Context) (bool, error) {
		for _, p := range b.Console(nil) {
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
	t.Logf("playground e2e: CSP probe: %s refused, and logged=%v", violation, seen)

	t.Logf("playground e2e: done in %v", time.Since(start).Round(time.Millisecond))
	t.Logf("browser steps took %v", time.Since(start).Round(time.Millisecond))
}
