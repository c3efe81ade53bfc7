package browsertest

import (
	"net/url"
	"strings"
	"testing"
)

// The layout check finds each kind of problem it looks for on a page made
// to have them, and none on the same page without them: a check that
// cannot fail would prove nothing about the pages it passes.
func TestCheckLayoutFindsProblems(t *testing.T) {
	b := Start(t, Options{})
	b.SetViewport(400, 800)
	page := func(body string) string {
		return "data:text/html;charset=utf-8," + url.PathEscape(`<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">`+body+`</body></html>`)
	}
	good := `<p>A short line.</p>
<div style="width:100px;overflow:hidden">fits</div>
<div style="width:100px;overflow-x:auto"><pre>a long line in a scrolling box is reachable, not cut ...........</pre></div>
<details><summary>closed</summary><div style="width:2000px">not rendered</div></details>
<svg width="200" height="50" viewBox="0 0 200 50"><text x="10" y="30" font-size="12">inside</text></svg>`
	b.Navigate(page(good))
	var r LayoutReport
	b.Script(layoutScript, &r)
	if len(r.Problems) != 0 || r.Checked < 4 || r.SVGTexts != 1 {
		t.Errorf("good page: %+v", r)
	}
	bad := `<div style="width:900px;text-align:right">wide</div>
<div style="width:60px;overflow:hidden;white-space:nowrap">this text is cut by its box</div>
<svg width="100" height="50" viewBox="0 0 100 50"><text x="60" y="30" font-size="12">leaves the chart</text></svg>`
	b.Navigate(page(bad))
	b.Script(layoutScript, &r)
	want := []string{"horizontal scroll", `"wide"`, "is cut by div", `chart text "leaves the chart"`}
	for _, w := range want {
		found := false
		for _, p := range r.Problems {
			found = found || strings.Contains(p, w)
		}
		if !found {
			t.Errorf("bad page: no problem mentions %q: %q", w, r.Problems)
		}
	}
	if len(r.Problems) != len(want) {
		t.Errorf("bad page: %d problems, want %d: %q", len(r.Problems), len(want), r.Problems)
	}
	a, c := Rect{0, 0, 10, 10}, Rect{9.5, 0, 20, 10}
	if a.Overlaps(c) || !a.Overlaps(Rect{5, 5, 15, 15}) {
		t.Error("Rect.Overlaps")
	}
}
