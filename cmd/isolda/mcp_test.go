package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/testkit/syncbuf"
)

// TestMCPStdio speaks JSON-RPC to `isolda mcp` on its standard input and
// output: the handshake, a bad graph (a tool error with its position), a
// call that works after it, and the end of input ending the server.
func TestMCPStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"mcp"}, &Env{Stdin: inR, Stdout: outW, Stderr: &errb})
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	// ask sends msg and returns the answer line (none for a notification).
	ask := func(msg string) string {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msg, `"id"`) {
			return ""
		}
		if !lines.Scan() {
			t.Fatalf("no answer to %s (%v); stderr %s", msg, lines.Err(), errb.String())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", lines.Text(), err)
		}
		return lines.Text()
	}
	hello := ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if !strings.Contains(hello, `"name":"isolda"`) {
		t.Fatalf("initialize: %v", hello)
	}
	ask(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	bad := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"encode","arguments":{"data":"<http://a> <http://b> ."}}}`)
	if !strings.Contains(bad, `"isError":true`) || !strings.Contains(bad, `data:1:`) {
		t.Errorf("bad graph: %s", bad)
	}
	ok := ask(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"count_tokens","arguments":{"text":"hello world"}}}`)
	if !strings.Contains(ok, `"text":"2 tokens`) || strings.Contains(ok, "isError") {
		t.Errorf("count_tokens: %s", ok)
	}
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Error("the server did not end with its input")
	}
}

// TestMCPHTTPLoopback: --http with a bare port listens on loopback, serves
// the transport at /mcp, and stops with its context.
func TestMCPHTTPLoopback(t *testing.T) {
	stderr := &syncbuf.Buffer{}
	root := newRootCmd(&Env{Stdout: &bytes.Buffer{}, Stderr: stderr})
	root.SetArgs([]string{"mcp", "--http", ":0"})
	url, stop := startBackground(t, root, stderr, regexp.MustCompile(`on (http://[^\s]+/mcp)`))
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("listening on %q: %s", url, stderr.String())
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, b := send(t, req)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"name":"isolda"`) {
		t.Errorf("initialize: %d %s", resp.StatusCode, b)
	}
	if err := stop(); err != nil {
		t.Errorf("after cancel: %v", err)
	}
}
