package page

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/testkit/webdriver/browsertest"
	"github.com/isolda/isolda/report"
	"github.com/isolda/isolda/report/internal/reporttest"
)

// viewports are the window sizes the pages are checked at: a desktop
// window and a phone.
var viewports = [][2]int{{1280, 800}, {400, 800}}

// TestReportInBrowser loads two reports in headless Chromium: the paper's
// four models (criteria, every chart) and a real eval run made against the
// scripted server (run metadata, the per-sample view). At 1280×800 and
// 400×800 the page must not scroll sideways, no text may be cut, no chart
// text may leave its chart and no two point labels of a Pareto chart may
// overlap; the console must stay empty (a CSP violation would show there).
// The sample filters are clicked and the samples shown counted against
// the run read in Go. Full-page screenshots go to $ISOLDA_SCREENSHOT_DIR.
func TestReportInBrowser(t *testing.T) {
	b := browsertest.Start(t, browsertest.Options{})
	dir := t.TempDir()

	// The paper's report: criteria and all charts.
	paper := paperPage(t, "isolda report: the paper's four models")
	var page bytes.Buffer
	must(t, paper.WriteHTML(&page))
	paperPath := filepath.Join(dir, "paper.html")
	must(t, os.WriteFile(paperPath, page.Bytes(), 0o644))
	charts, err := Charts(paper.Report)
	if err != nil {
		t.Fatal(err)
	}

	// A run: metadata and answers.
	tr := reporttest.NewRun(t)
	run, rr := readRun(t, tr)
	page.Reset()
	must(t, Page{Title: "isolda report", Report: rr, Run: run}.WriteHTML(&page))
	runPath := filepath.Join(dir, "run.html")
	must(t, os.WriteFile(runPath, page.Bytes(), 0o644))

	for _, vp := range viewports {
		b.SetViewport(vp[0], vp[1])
		size := fmt.Sprintf("%dx%d", vp[0], vp[1])

		b.Navigate("file://" + paperPath)
		var n int
		b.Script(`return document.querySelectorAll("svg.chart").length;`, &n)
		if n != len(charts) {
			t.Errorf("%s: %d charts rendered, want %d", size, n, len(charts))
		}
		b.CheckLayout("paper report " + size)
		checkLabels(t, b, size)
		// Legible: chart text is drawn at least 9 px high (at 400 px the
		// charts keep their size and scroll sideways in their frame).
		var smallest float64
		b.Script(`return Math.min(...[...document.querySelectorAll("svg.chart text.legend, svg.chart text.group-label")].map((e) => e.getBoundingClientRect().height));`, &smallest)
		if smallest < 9 {
			t.Errorf("%s: chart text drawn %.1f px high", size, smallest)
		}
		b.Screenshot("report-paper-" + size)
		b.CheckConsole("paper report "+size, nil)

		b.Navigate("file://" + runPath)
		b.CheckLayout("run report " + size)
		checkFilters(t, b, run, size)
		// One sample opened: its messages are the ones sent, the context
		// standing in as a link to its one copy.
		b.Script(`document.querySelector("details.sample").open = true;`, nil)
		var msg string
		b.Script(`return document.querySelector("details.sample .msg pre").textContent;`, &msg)
		s0 := run.Samples[0]
		m0 := s0.Messages[0]
		if !strings.HasPrefix(msg, m0.Before+"[context ") || !strings.HasSuffix(msg, "shown once under Contexts]"+m0.After) || m0.ContextSHA1 == "" {
			t.Errorf("%s: first message shown as %q, want %q + a context link + %q", size, msg, m0.Before, m0.After)
		}
		var ctx string
		b.Script(`return document.getElementById("ctx-" + arguments[0]).querySelector("pre").textContent;`, &ctx, m0.ContextSHA1)
		if ctx != run.Contexts[m0.ContextSHA1] {
			t.Errorf("%s: the context shown differs from contexts/%s.txt", size, m0.ContextSHA1)
		}
		// Following the context link unfolds the context.
		var open bool
		b.Script(`document.querySelector("details.sample a.ctx-ref").click(); return document.getElementById("ctx-" + arguments[0]).closest("details").open;`, &open, m0.ContextSHA1)
		if !open {
			t.Errorf("%s: following the context link leaves the context folded", size)
		}
		b.CheckLayout("run report, one answer open " + size)
		b.Screenshot("report-run-" + size)
		b.CheckConsole("run report "+size, nil)
	}
}

// checkLabels fails when two point labels of a scatter chart overlap as
// the browser draws them.
func checkLabels(t *testing.T, b *browsertest.Browser, size string) {
	t.Helper()
	labels := 0
	for ci, rects := range b.Rects("svg.scatter-chart", "text.point-label") {
		labels += len(rects)
		for i := range rects {
			for j := i + 1; j < len(rects); j++ {
				if rects[i].Overlaps(rects[j]) {
					t.Errorf("%s: scatter chart %d: labels %d and %d overlap: %v %v", size, ci, i, j, rects[i], rects[j])
				}
			}
		}
	}
	if labels == 0 {
		t.Errorf("%s: no point labels drawn", size)
	}
	t.Logf("%s: %d point labels, none overlapping", size, labels)
}

// checkFilters unticks filters one after the other and counts the answers
// shown, against the run's samples.
func checkFilters(t *testing.T, b *browsertest.Browser, run *report.Run, size string) {
	t.Helper()
	visible := func() int {
		var n int
		b.Script(`return [...document.querySelectorAll("details.sample")].filter((d) => d.getClientRects().length > 0).length;`, &n)
		return n
	}
	want := func(keep func(report.Sample) bool) int {
		n := 0
		for _, s := range run.Samples {
			if keep(s) {
				n++
			}
		}
		return n
	}
	click := func(id string) {
		t.Helper()
		el, err := b.S.FindElement(b.Ctx, "#"+id)
		if err != nil {
			t.Fatalf("%s: filter %s: %v", size, id, err)
		}
		if err := el.Click(b.Ctx); err != nil {
			t.Fatalf("%s: click %s: %v", size, id, err)
		}
	}
	f := newFilters(run.Samples)
	iso := fmt.Sprintf("f-arm-%d", indexOf(f.arms, "iso"))
	m2 := fmt.Sprintf("f-model-%d", indexOf(f.models, "m2"))
	steps := []struct {
		click string
		keep  func(report.Sample) bool
	}{
		{"", func(report.Sample) bool { return true }},
		{iso, func(s report.Sample) bool { return s.Arm != "iso" }},
		{"f-wrong", func(s report.Sample) bool { return s.Arm != "iso" && outcome(s) != "wrong" }},
		{m2, func(s report.Sample) bool { return s.Arm != "iso" && outcome(s) != "wrong" && s.Model != "m2" }},
		{iso, func(s report.Sample) bool { return outcome(s) != "wrong" && s.Model != "m2" }},
		{"f-wrong", func(s report.Sample) bool { return s.Model != "m2" }},
		{m2, func(report.Sample) bool { return true }},
	}
	var counts []string
	for _, st := range steps {
		if st.click != "" {
			click(st.click)
		}
		got, w := visible(), want(st.keep)
		if got != w {
			t.Errorf("%s: after clicking %q, %d answers shown, want %d", size, st.click, got, w)
		}
		counts = append(counts, fmt.Sprintf("%s→%d", cmpStr(st.click, "none"), got))
	}
	if want(func(s report.Sample) bool { return s.Arm != "iso" }) == len(run.Samples) {
		t.Fatal("the filter steps hide nothing: a useless test")
	}
	t.Logf("report browser %s: filters: %s", size, strings.Join(counts, ", "))
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// TestOpenLargeReport opens $ISOLDA_REPORT_HTML (a report.html, such as
// that of the synthetic KG-LLM-Bench run of TestWriteSynthRun) at 1280 and
// 400 px and prints the time from navigation to the load event and to the
// first full layout (the whole-page layout checks of TestReportInBrowser
// take minutes on such a page); it is skipped without that variable.
func TestOpenLargeReport(t *testing.T) {
	path := os.Getenv("ISOLDA_REPORT_HTML")
	if path == "" {
		t.Skip("set ISOLDA_REPORT_HTML to a report.html to time its opening")
	}
	abs, err := filepath.Abs(path)
	must(t, err)
	b := browsertest.Start(t, browsertest.Options{Timeout: 5 * time.Minute})
	for _, vp := range viewports {
		b.SetViewport(vp[0], vp[1])
		start := time.Now()
		b.Navigate("file://" + abs)
		var load float64
		var height int
		b.Script(`return performance.getEntriesByType("navigation")[0].loadEventEnd;`, &load)
		b.Script(`return document.documentElement.scrollHeight;`, &height)
		t.Logf("open %s at %dx%d: load event at %.0f ms, laid out (%d px high) after %.2f s", path, vp[0], vp[1], load, height, time.Since(start).Seconds())
	}
}
