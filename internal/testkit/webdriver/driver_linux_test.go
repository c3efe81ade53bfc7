package webdriver

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// tools returns chromedriver and chromium, or skips (fails with
// ISOLDA_REQUIRE_BROWSER=1).
func tools(t *testing.T) (driver, browser string) {
	t.Helper()
	driver, _ = exec.LookPath("chromedriver")
	for _, n := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(n); err == nil {
			browser = p
			break
		}
	}
	if driver == "" || browser == "" {
		if os.Getenv("ISOLDA_REQUIRE_BROWSER") == "1" {
			t.Fatalf("chromedriver %q, chromium %q: both are needed (ISOLDA_REQUIRE_BROWSER=1)", driver, browser)
		}
		t.Skip("chromedriver or chromium missing (apt-get install chromium chromium-driver)")
	}
	return driver, browser
}

// liveInGroup returns the processes of process group pgid that are not
// zombies, from /proc.
func liveInGroup(t *testing.T, pgid int) []string {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // exited meanwhile
		}
		s := string(b)
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		g, _ := strconv.Atoi(f[2])
		if g == pgid && f[0] != "Z" && f[0] != "X" {
			out = append(out, s[:i+1]+" "+f[0])
		}
	}
	return out
}

// waitNoneLive waits up to 10 s for the group to have no live process.
func waitNoneLive(t *testing.T, pgid int) {
	t.Helper()
	err := WaitUntil(context.Background(), 10*time.Second, 50*time.Millisecond, func(context.Context) (bool, error) {
		return len(liveInGroup(t, pgid)) == 0, nil
	})
	if err != nil {
		t.Errorf("processes left in group %d: %v", pgid, liveInGroup(t, pgid))
	}
}

// startHeadless starts the real chromedriver and a headless Chromium
// session (browserLog: with the console log kept) under a context of a
// minute, which it returns with its cancel; the test's cleanup stops the
// driver.
func startHeadless(t *testing.T, browserLog bool) (context.Context, context.CancelFunc, *Driver, *Session) {
	t.Helper()
	driver, browser := tools(t)
	profile := t.TempDir() // registered first, removed after the driver stopped
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	d, err := Start(ctx, DriverOptions{Path: driver})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Stop() })
	s, err := d.NewSession(ctx, SessionOptions{
		Chrome:     &ChromeOptions{Binary: browser, Args: append(HeadlessChromiumArgs(), "--user-data-dir="+profile)},
		BrowserLog: browserLog,
	})
	if err != nil {
		t.Fatal(err)
	}
	return ctx, cancel, d, s
}

// TestDriverLifecycle runs the real chromedriver and Chromium: a session
// renders a page, and Stop, without deleting the session first, leaves no
// process of the driver's group alive.
func TestDriverLifecycle(t *testing.T) {
	ctx, _, d, s := startHeadless(t, true)
	page := "data:text/html,<title>t</title><p id=p>hello <b>world</b></p><script>console.error('from the page')</script>"
	if err := s.Navigate(ctx, page); err != nil {
		t.Fatal(err)
	}
	p, err := s.FindElement(ctx, "#p")
	if err != nil {
		t.Fatal(err)
	}
	if txt, err := p.Text(ctx); err != nil || txt != "hello world" {
		t.Errorf("text %q %v", txt, err)
	}
	if _, err := s.FindElement(ctx, "#nothing"); !IsCode(err, "no such element") {
		t.Errorf("missing element: %v", err)
	}
	var n int
	if err := s.ExecuteScript(ctx, "return arguments[0].childNodes.length + arguments[1]", &n, p, 40); err != nil || n != 42 {
		t.Errorf("script: %d %v", n, err)
	}
	logs, err := s.Log(ctx, "browser")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range logs {
		found = found || (l.Level == "SEVERE" && strings.Contains(l.Message, "from the page"))
	}
	if !found {
		t.Errorf("console.error not in the browser log: %+v", logs)
	}
	png, err := s.Screenshot(ctx)
	if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
	pgid := d.Pid()
	if len(liveInGroup(t, pgid)) < 2 {
		t.Errorf("the driver's group should hold the driver and the browser: %v", liveInGroup(t, pgid))
	}
	if err := d.Stop(); err != nil {
		t.Error(err)
	}
	waitNoneLive(t, pgid)
	if err := d.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
}

// TestDriverContextKill checks the driver and its browser die when the
// context given to Start ends (a test running out of time).
func TestDriverContextKill(t *testing.T) {
	_, cancel, d, _ := startHeadless(t, false)
	pgid := d.Pid()
	cancel()
	waitNoneLive(t, pgid)
}

// TestStartFailures checks Start's errors: no executable, and one that
// exits at once.
func TestStartFailures(t *testing.T) {
	ctx := context.Background()
	if _, err := Start(ctx, DriverOptions{Path: filepath.Join(t.TempDir(), "no-such-driver")}); err == nil {
		t.Error("a missing driver started")
	}
	f, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false(1)")
	}
	// Noticed when it happens, not at the start timeout (a deadline
	// error would wrap the exit).
	_, err = Start(ctx, DriverOptions{Path: f, StartTimeout: 20 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "exited before it was ready") || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a driver that exits: %v", err)
	}
}
