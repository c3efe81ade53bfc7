package report

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium finds a headless Chromium: $CHROMIUM, else chromium or
// chromium-browser on the PATH. CI installs Debian's chromium (.ci/run), so
// there a missing browser fails the test; elsewhere the test is skipped
// with a hint.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found: .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium not installed (apt-get install chromium); CI runs this test")
	return ""
}

// runChromium runs headless Chromium with the flags that keep it off the
// network, and returns its stdout and stderr.
func runChromium(t *testing.T, bin string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
	}
	return out.String(), errb.String()
}

// consoleProblem matches what Chromium logs for page errors and console
// errors or warnings.
var consoleProblem = regexp.MustCompile(`(?i)(Uncaught|CONSOLE\(\d+\)|Refused to|Failed to load|ERR_)`)

// TestReportInBrowser loads report.html in headless Chromium: every chart
// must be in the rendered DOM with its bars or points, and the page must log
// no console error. One screenshot per chart kind (bar, scatter) and one of
// the whole page go to $ISOLDA_TEST_OUTPUT (default: a temporary folder),
// named in the test log for review.
func TestReportInBrowser(t *testing.T) {
	bin := chromium(t)
	obs := paperRun()
	r, err := Build(obs, Options{Seed: 1, Resamples: 500, Reference: []string{"b-ttl-ids"}})
	if err != nil {
		t.Fatal(err)
	}
	outDir := os.Getenv("ISOLDA_TEST_OUTPUT")
	if outDir == "" {
		outDir = t.TempDir()
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	must(t, r.WriteHTML(&page, "isolda report", nil))
	pagePath := filepath.Join(outDir, "report.html")
	must(t, os.WriteFile(pagePath, page.Bytes(), 0o644))
	charts, err := r.Charts()
	if err != nil {
		t.Fatal(err)
	}

	dom, logs := runChromium(t, bin, "--dump-dom", "file://"+pagePath)
	if p := consoleProblem.FindString(logs); p != "" {
		t.Errorf("the browser logged a problem (%q):\n%s", p, logs)
	}
	if got := strings.Count(dom, "<svg"); got != len(charts) {
		t.Errorf("rendered DOM has %d svg elements, want %d charts", got, len(charts))
	}
	for _, c := range charts {
		if !strings.Contains(dom, c.Title) && !strings.Contains(dom, htmlEscape(c.Title)) {
			t.Errorf("chart %q missing from the rendered page", c.Title)
		}
	}
	if !strings.Contains(dom, `class="bar"`) || !strings.Contains(dom, "<circle") {
		t.Error("the rendered page has no bars or no scatter points")
	}

	// Screenshots: the whole page, then one chart of each kind alone.
	shot := func(name, url string) {
		png := filepath.Join(outDir, name+".png")
		_, logs := runChromium(t, bin, "--window-size=1200,900", "--screenshot="+png, url)
		if p := consoleProblem.FindString(logs); p != "" {
			t.Errorf("%s: the browser logged a problem (%q)", name, p)
		}
		st, err := os.Stat(png)
		if err != nil || st.Size() < 2000 {
			t.Errorf("%s: no screenshot (%v)", name, err)
			return
		}
		t.Logf("screenshot: %s", png)
	}
	shot("report", "file://"+pagePath)
	seen := map[string]bool{}
	for _, c := range charts {
		if seen[c.Kind] {
			continue
		}
		seen[c.Kind] = true
		p := filepath.Join(outDir, "chart-"+c.Kind+".html")
		must(t, os.WriteFile(p, []byte("<!DOCTYPE html><html><body>"+c.SVG+"</body></html>"), 0o644))
		shot("chart-"+c.Kind, "file://"+p)
	}
	if !seen["bar"] || !seen["scatter"] {
		t.Errorf("chart kinds %v: want bar and scatter", seen)
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
