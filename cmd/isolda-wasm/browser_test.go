//go:build !js

package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/examples"
	"github.com/isolda/isolda/internal/testkit/testgraph"
	"github.com/isolda/isolda/internal/testkit/webdriver/browsertest"
	"github.com/isolda/isolda/isolda"
	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/rdfio"
)

// browserPage loads the npm package's index.js as a module in the page, as
// a browser app would, and leaves what it got in window.__result.
const browserPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"/><title>isolda in a browser</title></head><body>
<script type="module">
import { encode, countTokens } from './index.js';
try {
  const ttl = await (await fetch('./graph.ttl')).text();
  const doc = await encode(ttl, { format: 'ttl' });
  const tokens = await countTokens(doc, 'o200k_base');
  let bad = null;
  try {
    await encode(await (await fetch('./bad.ttl')).text(), { format: 'ttl' });
  } catch (e) {
    bad = { message: e.message, line: e.line, column: e.column };
  }
  window.__result = { doc, tokens, bad };
} catch (e) {
  window.__result = { error: String((e && e.stack) || e) };
}
</script>
</body></html>
`

// badTurtle is a Turtle document with an error on its second line.
const badTurtle = "@prefix ex: <https://example.org/> .\nex:a ex:b ex:c ex:d .\n"

// TestPackageInBrowser runs the npm package (npm/index.js, Go's
// wasm_exec.js and this command compiled to js/wasm) in headless Chromium
// from a local server and checks what it gives against the Go API called
// directly: the ISOLDA document of the demo graph byte for byte, its
// o200k_base count, and a parse error's line and column. Skipped without
// Chromium (failed in CI, where ISOLDA_REQUIRE_BROWSER=1).
func TestPackageInBrowser(t *testing.T) {
	browsertest.Tools(t)
	if testing.Short() {
		t.Skip("compiles the WebAssembly core: not in -short")
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", filepath.Join(dir, "isolda.wasm"), ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for js/wasm: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js"))
	copyFile(t, filepath.Join("..", "..", "npm", "index.js"), filepath.Join(dir, "index.js"))
	graph, err := examples.Read(examples.Default)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"index.html": []byte(browserPage), "graph.ttl": graph, "bad.ttl": []byte(badTurtle)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir))) // .wasm is served as application/wasm
	defer srv.Close()

	// The oracle: the Go API on the same input.
	d, err := rdfio.Read(bytes.NewReader(graph), rdfio.Options{Format: rdfio.Turtle})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := isolda.Encode(&want, d, isolda.Options{}); err != nil {
		t.Fatal(err)
	}
	tok := testgraph.O200k(t)
	_, perr := rdfio.Read(strings.NewReader(badTurtle), rdfio.Options{Format: rdfio.Turtle})
	var pe *rdf.ParseError
	if !errors.As(perr, &pe) || pe.Line == 0 {
		t.Fatalf("the bad Turtle gives no positioned error in Go: %v", perr)
	}

	b := browsertest.Start(t, browsertest.Options{Timeout: 5 * time.Minute})
	b.Navigate(srv.URL + "/index.html")
	var got struct {
		Doc    string `json:"doc"`
		Tokens int    `json:"tokens"`
		Error  string `json:"error"`
		Bad    *struct {
			Message      string `json:"message"`
			Line, Column int
		} `json:"bad"`
	}
	start := time.Now()
	for {
		var done bool
		b.Script("return window.__result !== undefined && window.__result !== null", &done)
		if done {
			break
		}
		if time.Since(start) > 4*time.Minute {
			t.Fatal("the page did not finish in 4 minutes")
		}
		time.Sleep(250 * time.Millisecond)
	}
	b.Script("return window.__result", &got)
	if got.Error != "" {
		t.Fatalf("in the browser: %s", got.Error)
	}
	t.Logf("the package ran in Chromium in %s: %d bytes of ISOLDA, %d tokens", time.Since(start).Round(time.Millisecond), len(got.Doc), got.Tokens)
	if got.Doc != want.String() {
		t.Errorf("encode in the browser differs from isolda.Encode:\n got %q\nwant %q", got.Doc, want.String())
	}
	if n := tok.Count(want.String()); got.Tokens != n {
		t.Errorf("countTokens in the browser = %d, want %d", got.Tokens, n)
	}
	if got.Bad == nil {
		t.Fatal("a bad Turtle document did not reject the promise")
	}
	if got.Bad.Line != pe.Line || got.Bad.Column != pe.Column || !strings.Contains(got.Bad.Message, pe.Msg) {
		t.Errorf("the error in the browser is %+v, want line %d, column %d, %q", *got.Bad, pe.Line, pe.Column, pe.Msg)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
