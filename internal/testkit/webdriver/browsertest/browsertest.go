// Package browsertest runs pages in Debian's headless Chromium through
// chromedriver for tests: it starts the browser, sets exact viewports,
// checks the layout (no horizontal scrolling, no clipped text, no chart
// text outside its chart) and saves full-page screenshots.
//
// When chromium or chromedriver is missing the test is skipped, unless
// ISOLDA_REQUIRE_BROWSER=1 (set by CI), where it fails. Screenshots go to
// $ISOLDA_SCREENSHOT_DIR, or to the test's temporary folder (removed after
// the test) when it is not set; each is named in the test log.
package browsertest

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/atomicfile"
	"github.com/isolda/isolda/internal/testkit/syncbuf"
	"github.com/isolda/isolda/internal/testkit/webdriver"
)

// Tools returns the paths of chromium and chromedriver ($CHROMIUM and
// $CHROMEDRIVER override the PATH), or skips the test (fails it with
// ISOLDA_REQUIRE_BROWSER=1) when one is missing.
func Tools(t testing.TB) (chromium, chromedriver string) {
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

// Options configure Start.
type Options struct {
	// Prefs are browser preferences (such as download.default_directory).
	Prefs map[string]any
	// Timeout bounds the whole browser session (default 90 seconds, cut to
	// end 10 seconds before the test binary's deadline).
	Timeout time.Duration
}

// Browser is one headless Chromium session of a test.
type Browser struct {
	T   *testing.T
	Ctx context.Context
	S   *webdriver.Session
	// viewport is the size SetViewport set (zero: the window's).
	viewport [2]int
}

// Start starts chromedriver and a session with the console log kept; the
// test's cleanup ends both.
func Start(t *testing.T, opts Options) *Browser {
	t.Helper()
	chromium, chromedriver := Tools(t)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 90 * time.Second
	}
	if dl, ok := t.Deadline(); ok && time.Until(dl)-10*time.Second < timeout {
		timeout = time.Until(dl) - 10*time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	var driverLog syncbuf.Buffer
	d, err := webdriver.Start(ctx, webdriver.DriverOptions{Path: chromedriver, Log: &driverLog})
	if err != nil {
		t.Fatalf("chromedriver: %v\n%s", err, driverLog.String())
	}
	t.Cleanup(func() {
		if err := d.Stop(); err != nil {
			t.Error(err)
		}
	})
	s, err := d.NewSession(ctx, webdriver.SessionOptions{
		Chrome: &webdriver.ChromeOptions{
			Binary: chromium,
			Args: append(webdriver.HeadlessChromiumArgs(), "--user-data-dir="+t.TempDir(),
				"--window-size=1280,800", "--disable-crash-reporter", "--hide-scrollbars"),
			Prefs: opts.Prefs,
		},
		BrowserLog: true,
	})
	if err != nil {
		t.Fatalf("new session: %v\n%s", err, driverLog.String())
	}
	t.Cleanup(func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer dcancel()
		if err := s.Delete(dctx); err != nil {
			t.Logf("delete session: %v", err)
		}
	})
	return &Browser{T: t, Ctx: ctx, S: s}
}

// Navigate loads url.
func (b *Browser) Navigate(url string) {
	b.T.Helper()
	if err := b.S.Navigate(b.Ctx, url); err != nil {
		b.T.Fatalf("navigate to %s: %v", url, err)
	}
}

// Script runs script in the page and decodes its result into result
// (unless nil), failing the test on an error.
func (b *Browser) Script(script string, result any, args ...any) {
	b.T.Helper()
	if err := b.S.ExecuteScript(b.Ctx, script, result, args...); err != nil {
		b.T.Fatalf("script: %v\n%s", err, script)
	}
}

// SetViewport makes the page's viewport exactly width × height CSS pixels
// at a device scale of 1 (Chrome DevTools Emulation), as a phone or a
// desktop window of that size shows it.
func (b *Browser) SetViewport(width, height int) {
	b.T.Helper()
	b.metrics(width, height)
	b.viewport = [2]int{width, height}
	var got [2]int
	b.Script(`return [document.documentElement.clientWidth, window.innerHeight];`, &got)
	if got[0] != width {
		b.T.Fatalf("viewport %dx%d asked, the page sees %d px wide", width, height, got[0])
	}
}

// metrics overrides the viewport's size.
func (b *Browser) metrics(width, height int) {
	b.T.Helper()
	err := b.S.ExecuteCDP(b.Ctx, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	if err != nil {
		b.T.Fatalf("viewport %dx%d: %v", width, height, err)
	}
}

// layoutScript lists what a reader cannot see whole: a page wider than its
// viewport; text outside the viewport or cut by an ancestor that hides its
// overflow (text in a scrolling box is reachable and not counted); SVG text
// outside its svg element. Text in closed <details> is not rendered and not
// checked.
const layoutScript = `
const vw = document.documentElement.clientWidth, problems = [];
const sw = document.documentElement.scrollWidth;
if (sw > vw) problems.push("the page is " + sw + " px wide in a " + vw + " px viewport (horizontal scroll)");
const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
  (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).join(".") : "");
const snip = (s) => JSON.stringify(s.trim().replace(/\s+/g, " ").slice(0, 60));
const shown = new Map();
const visible = (el) => {
  if (shown.has(el)) return shown.get(el);
  const cs = getComputedStyle(el);
  const v = cs.display !== "none" && cs.visibility !== "hidden" && (!el.parentElement || visible(el.parentElement));
  shown.set(el, v);
  return v;
};
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
let checked = 0;
for (let n; (n = walker.nextNode()); ) {
  const el = n.parentElement;
  if (!n.textContent.trim() || !el || el.closest("svg, script, style") || !visible(el)) continue;
  const range = document.createRange();
  range.selectNodeContents(n);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0);
  if (rects.length === 0) continue;
  checked++;
  const left = Math.min(...rects.map((r) => r.left)), right = Math.max(...rects.map((r) => r.right));
  let clip = null;
  for (let a = el; a && a !== document.documentElement && a !== document.body; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== "visible") { clip = a; break; }
  }
  if (clip) {
    const ox = getComputedStyle(clip).overflowX;
    if (ox === "auto" || ox === "scroll") continue; // reachable by scrolling that box
    const ar = clip.getBoundingClientRect();
    if (left < ar.left - 0.5 || right > ar.right + 0.5) {
      problems.push("text " + snip(n.textContent) + " in " + name(el) + " is cut by " + name(clip) + " (overflow " + ox + ")");
      continue;
    }
  }
  if (left < -0.5 || right > vw + 0.5)
    problems.push("text " + snip(n.textContent) + " in " + name(el) + " spans x " + Math.round(left) + " to " + Math.round(right) + ", outside the " + vw + " px viewport");
}
let svgTexts = 0;
for (const svg of document.querySelectorAll("svg")) {
  if (!visible(svg)) continue;
  const sr = svg.getBoundingClientRect();
  for (const t of svg.querySelectorAll("text")) {
    const r = t.getBoundingClientRect();
    if (r.width === 0) continue;
    svgTexts++;
    if (r.left < sr.left - 1 || r.right > sr.right + 1 || r.top < sr.top - 1 || r.bottom > sr.bottom + 1)
      problems.push("chart text " + snip(t.textContent) + " of " + snip(svg.getAttribute("aria-label") || "an svg") + " leaves its chart");
  }
}
return {problems: problems, checked: checked, svgTexts: svgTexts, scrollWidth: sw, viewport: vw};`

// LayoutReport is what CheckLayout found.
type LayoutReport struct {
	Problems    []string `json:"problems"`
	Checked     int      `json:"checked"`
	SVGTexts    int      `json:"svgTexts"`
	ScrollWidth int      `json:"scrollWidth"`
	Viewport    int      `json:"viewport"`
}

// CheckLayout fails the test for each layout problem of the page as it is
// now (see layoutScript), naming step, and returns the report.
func (b *Browser) CheckLayout(step string) LayoutReport {
	b.T.Helper()
	var r LayoutReport
	b.Script(layoutScript, &r)
	for _, p := range r.Problems {
		b.T.Errorf("%s: %s", step, p)
	}
	if r.Checked == 0 {
		b.T.Errorf("%s: no visible text to check", step)
	}
	b.T.Logf("%s: page %d px wide in a %d px viewport; %d text nodes and %d chart texts checked, %d problems",
		step, r.ScrollWidth, r.Viewport, r.Checked, r.SVGTexts, len(r.Problems))
	return r
}

// Rect is an element's box in CSS pixels.
type Rect struct{ Left, Top, Right, Bottom float64 }

// Overlaps reports whether a and b share more than one pixel in each
// direction.
func (a Rect) Overlaps(b Rect) bool {
	return min(a.Right, b.Right)-max(a.Left, b.Left) > 1 && min(a.Bottom, b.Bottom)-max(a.Top, b.Top) > 1
}

// Rects returns the boxes of the elements matching css within each element
// matching scope, grouped by scope element.
func (b *Browser) Rects(scope, css string) [][]Rect {
	b.T.Helper()
	var out [][]Rect
	b.Script(`return [...document.querySelectorAll(arguments[0])].map((s) => [...s.querySelectorAll(arguments[1])].map((e) => {
		const r = e.getBoundingClientRect(); return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom}; }));`, &out, scope, css)
	return out
}

// maxShotHeight bounds a full-page screenshot (CSS pixels).
const maxShotHeight = 12000

// Screenshot saves a PNG of the whole page (up to maxShotHeight pixels
// tall) as name.png and returns its path; it checks that the image is a
// rendered page of the viewport's width. The page is shown in a viewport
// as tall as the page for the picture (Chromium's capture beyond the
// viewport paints scrolling boxes wider than they are), then the viewport
// is restored.
func (b *Browser) Screenshot(name string) string {
	t := b.T
	t.Helper()
	var size [4]int
	b.Script(`return [document.documentElement.clientWidth, Math.max(document.documentElement.scrollHeight, document.body.scrollHeight),
		window.innerWidth, window.innerHeight];`, &size)
	b.metrics(size[0], min(size[1], maxShotHeight))
	var res struct {
		Data string `json:"data"`
	}
	err := b.S.ExecuteCDP(b.Ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res)
	if b.viewport != [2]int{} {
		b.metrics(b.viewport[0], b.viewport[1])
	} else if cerr := b.S.ExecuteCDP(b.Ctx, "Emulation.clearDeviceMetricsOverride", nil, nil); cerr != nil {
		t.Fatalf("screenshot %s: restoring the viewport: %v", name, cerr)
	}
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	data, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot %s is not a PNG: %v", name, err)
	}
	if bd := img.Bounds(); bd.Dx() != size[0] {
		t.Errorf("screenshot %s is %d px wide, the viewport %d", name, bd.Dx(), size[0])
	}
	if c := DistinctColors(img, 16); c < 16 {
		t.Errorf("screenshot %s has %d distinct colours, a rendered page has many", name, c)
	}
	dir, kept := os.Getenv("ISOLDA_SCREENSHOT_DIR"), ""
	if dir == "" {
		dir, kept = t.TempDir(), "; removed after the test: set ISOLDA_SCREENSHOT_DIR to keep it"
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	bd := img.Bounds()
	t.Logf("screenshot: %s (%dx%d, %d bytes%s)", path, bd.Dx(), bd.Dy(), len(data), kept)
	fmt.Printf("screenshot: %s (%dx%d)\n", path, bd.Dx(), bd.Dy())
	return path
}

// DistinctColors counts the colours of a sample of img's pixels, up to
// limit.
func DistinctColors(img image.Image, limit int) int {
	seen := map[[4]uint32]bool{}
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y += 7 {
		for x := bd.Min.X; x < bd.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// Console returns the console warnings and errors logged since the last
// call, except those allowed matches (nil: none allowed).
func (b *Browser) Console(allowed *regexp.Regexp) []string {
	b.T.Helper()
	entries, err := b.S.Log(b.Ctx, "browser")
	if err != nil {
		b.T.Fatalf("browser log: %v", err)
	}
	var out []string
	for _, en := range entries {
		if en.Level != "SEVERE" && en.Level != "WARNING" {
			continue
		}
		p := en.Level + " " + en.Source + ": " + en.Message
		if allowed != nil && allowed.MatchString(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// CheckConsole fails the test for each console warning or error since the
// last call, except those allowed matches.
func (b *Browser) CheckConsole(step string, allowed *regexp.Regexp) {
	b.T.Helper()
	for _, p := range b.Console(allowed) {
		b.T.Errorf("%s: browser console: %s", step, p)
	}
}
