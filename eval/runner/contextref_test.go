package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/isolda/isolda/llm/llmtest"
)

// TestContextByReference: the log holds each call's request body with the
// frozen context replaced by a reference, and FullRequest rebuilds every
// body byte for byte as the server received it (its own record), from the
// context files of the run folder; the Turtle arm's <IRIs> exercise the
// JSON escaping.
func TestContextByReference(t *testing.T) {
	dir := t.TempDir()
	var bodies []string
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "x"} })
	defer srv.Close()
	p, out := runDemo(t, dir, srv)
	for _, r := range srv.Requests() {
		bodies = append(bodies, string(r.Body))
	}
	received := map[string]int{}
	total := 0
	for _, b := range bodies {
		received[b]++
		total += len(b)
	}
	recs := readLog(t, out)
	if len(recs) != len(bodies) || len(recs) == 0 {
		t.Fatalf("%d records, %d requests", len(recs), len(bodies))
	}
	files := map[string]string{}
	for _, c := range p.Contexts {
		files[c.SHA1] = c.File
	}
	logged, byRef := 0, 0
	for _, r := range recs {
		logged += len(r.RawRequest)
		ctx := ""
		if r.RequestContext != "" {
			byRef++
			b, err := os.ReadFile(filepath.Join(out, files[r.RequestContext]))
			if err != nil {
				t.Fatal(err)
			}
			ctx = string(b)
			if strings.Contains(r.RawRequest, jsonInner(ctx, true)) || strings.Contains(r.RawRequest, jsonInner(ctx, false)) {
				t.Errorf("%s: the logged body still holds the context", r.Key)
			}
		}
		full, err := r.FullRequest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if received[full] == 0 {
			t.Errorf("%s: the rebuilt body was not sent:\n%s", r.Key, full)
		}
		received[full]--
		if r.RequestContext != "" {
			if _, err := r.FullRequest(ctx + " "); err == nil {
				t.Errorf("%s: rebuilt with another context", r.Key)
			}
		}
	}
	if byRef != len(recs) {
		t.Errorf("%d of %d records refer to their context", byRef, len(recs))
	}
	t.Logf("request bodies: %d bytes sent, %d logged", total, logged)
	if logged*2 > total {
		t.Errorf("the log holds %d bytes of request bodies for %d sent", logged, total)
	}
}
