package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/isolda/isolda/llm/llmtest"
)

// TestFinished: a run made with a fingerprint is finished for that
// fingerprint once every call is answered, and not for another
// fingerprint, with a frozen file changed, or with a call left.
func TestFinished(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(func(r llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: "x"} })
	defer srv.Close()
	e := writeExp(t, dir, srv.URL, "")
	fp := Fingerprint(e, dir)
	if len(fp) != 64 {
		t.Fatalf("fingerprint %q", fp)
	}
	if again := Fingerprint(writeExp(t, t.TempDir(), srv.URL, ""), dir); again != fp {
		t.Errorf("the same inputs give another fingerprint: %s, %s", again, fp)
	}
	p := prepare(t, e, dir)
	out := filepath.Join(dir, "run")
	// One call made: not finished.
	if _, err := Run(context.Background(), p, RunOptions{Out: out, Limit: 1, Fingerprint: fp}); err != nil {
		t.Fatal(err)
	}
	if _, ok := Finished(out, fp); ok {
		t.Fatal("finished after 1 call")
	}
	if _, err := Run(context.Background(), p, RunOptions{Out: out, Fingerprint: fp}); err != nil {
		t.Fatal(err)
	}
	m, ok := Finished(out, fp)
	if !ok || m.RunID != p.Manifest.RunID || m.Calls != len(srv.Requests()) {
		t.Fatalf("not finished after every call: %v, %+v", ok, m)
	}
	if _, ok := Finished(out, ""); ok {
		t.Error("finished for no fingerprint")
	}
	if _, ok := Finished(out, fp[:63]+"0"); ok && fp[63] != '0' {
		t.Error("finished for another fingerprint")
	}
	// A frozen context changed on disk.
	ctx := filepath.Join(out, p.Contexts[0].File)
	b, err := os.ReadFile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ctx, append(b, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Finished(out, fp); ok {
		t.Error("finished with a frozen context changed")
	}
	if err := os.WriteFile(ctx, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := Finished(out, fp); !ok {
		t.Error("not finished with the context restored")
	}
	// An input file changed: another fingerprint.
	g := e.InputFiles(dir)
	if len(g) == 0 {
		t.Fatal("no input files")
	}
	if err := os.WriteFile(g[0], []byte("# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if Fingerprint(e, dir) == fp {
		t.Error("an input edited, the same fingerprint")
	}
}
