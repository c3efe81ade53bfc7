package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/internal/testkit/syncbuf"
	"github.com/isolda/isolda/server"
	"github.com/spf13/cobra"
)

// TestServeShutdown runs the server on a loopback port, answers a request,
// and stops when the context is canceled, finishing a request in progress.
func TestServeShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, server.Config{MaxQuads: 100}, 10*time.Second) }()

	body := `{"graph": {"data": "<http://e/a> <http://e/p> \"x\" ."}, "format": "ntriples"}`
	resp, err := http.Post(url+"/v1/serialize", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Text   string `json:"text"`
		Tokens int    `json:"tokens"`
	}
	json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if resp.StatusCode != 200 || out.Text != "<http://e/a> <http://e/p> \"x\" .\n" {
		t.Fatalf("status %d, text %q", resp.StatusCode, out.Text)
	}

	// A request whose body is still being sent when shutdown starts is
	// answered before serve returns.
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	wg.Add(1)
	var slowStatus int
	go func() {
		defer wg.Done()
		resp, err := http.Post(url+"/v1/serialize", "application/json", pr)
		if err != nil {
			t.Error(err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		slowStatus = resp.StatusCode
	}()
	io.WriteString(pw, body[:10])
	time.Sleep(100 * time.Millisecond)
	cancel()
	time.Sleep(100 * time.Millisecond)
	io.WriteString(pw, body[10:])
	pw.Close()
	wg.Wait()
	if slowStatus != 200 {
		t.Errorf("request in progress at shutdown: status %d", slowStatus)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after shutdown")
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

// TestServeCommand runs `isolda serve` with limit flags on a free port and
// checks a limit is applied.
func TestServeCommand(t *testing.T) {
	url, stderr, stop := startServe(t, "--max-request-bytes", "100", "--timeout", "5s")
	resp, err := http.Post(url+"/v1/check", "application/json", strings.NewReader(`{"graph": {"data": "`+strings.Repeat(" ", 200)+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("--max-request-bytes 100: status %d", resp.StatusCode)
	}
	if err := stop(); err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("serve: %v", err)
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestServeBadAddr checks a bad address is a usage error.
func TestServeBadAddr(t *testing.T) {
	var out, errb bytes.Buffer
	env := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	root := newRootCmd(env)
	root.SetArgs([]string{"serve", "--addr", "256.0.0.1:http-nope"})
	err := root.Execute()
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput {
		t.Errorf("error %v, want a bad-input exit", err)
	}
}

// startServe runs `isolda serve` with args on a free loopback port and
// returns its URL, its stderr and a function that stops it.
func startServe(t *testing.T, args ...string) (string, *syncbuf.Buffer, func() error) {
	t.Helper()
	stderr := &syncbuf.Buffer{}
	root := newRootCmd(&Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr})
	root.SetArgs(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
	url, stop := startBackground(t, root, stderr, regexp.MustCompile(`listening on (http://[^\s]+)`))
	return url, stderr, stop
}

// send sends req with the default client, failing the test on a
// transport error, and returns the answer with its body, read and closed.
func send(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, b
}

// startBackground executes root (whose standard error is stderr) in the
// background and waits, a minute at most, for stderr to match re. It
// returns re's first group and a function that cancels the command and
// returns its error (failing the test when it has not returned within 30
// seconds); the test's cleanup cancels it too.
func startBackground(t *testing.T, root *cobra.Command, stderr *syncbuf.Buffer, re *regexp.Regexp) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Error("the command did not stop")
			return nil
		}
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], stop
		}
	}
	stop()
	t.Fatalf("no line matching %s on stderr: %q", re, stderr.String())
	return "", nil
}

// TestServeHosts checks the server answers the Host names of its loopback
// address and refuses others (DNS rebinding), and --allowed-hosts.
func TestServeHosts(t *testing.T) {
	url, stderr, stop := startServe(t)
	defer stop()
	port := url[strings.LastIndexByte(url, ':')+1:]
	get := func(host string) int {
		req, _ := http.NewRequest("GET", url+"/healthz", nil)
		req.Host = host
		resp, _ := send(t, req)
		return resp.StatusCode
	}
	for host, want := range map[string]int{"127.0.0.1:" + port: 200, "localhost:" + port: 200, "[::1]:" + port: 200,
		"attacker.example:" + port: 403, "localhost:1": 403} {
		if got := get(host); got != want {
			t.Errorf("Host %s: %d, want %d", host, got, want)
		}
	}
	if !strings.Contains(stderr.String(), "memory budget") || !strings.Contains(stderr.String(), "memory limit") {
		t.Errorf("start-up line: %q", stderr.String())
	}
	url2, _, stop2 := startServe(t, "--allowed-hosts", "isolda.example.org", "--memory-limit", "256MiB")
	defer stop2()
	req, _ := http.NewRequest("GET", url2+"/metrics", nil)
	req.Host = "isolda.example.org"
	resp, b := send(t, req)
	if resp.StatusCode != 200 || !strings.Contains(string(b), "isolda_memory_budget_bytes 134217728\n") {
		t.Errorf("--allowed-hosts, --memory-limit 256MiB: %d, budget line missing:\n%s", resp.StatusCode, b)
	}
}

// TestServeBadFlags checks malformed hosts and sizes are usage errors.
func TestServeBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--allowed-hosts", "a b"},
		{"--memory-budget", "lots"},
		{"--memory-limit", "1GiB", "--memory-budget", "2GiB"},
	} {
		env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
		root := newRootCmd(env)
		root.SetArgs(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
		err := root.Execute()
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitBadInput {
			t.Errorf("%q: error %v, want a bad-input exit", args, err)
		}
	}
}

// TestServeKeysNotLogged sends API keys in the headers of good and bad
// requests: neither the server's output nor its answers carry them.
func TestServeKeysNotLogged(t *testing.T) {
	url, stderr, stop := startServe(t)
	const key = "sk-test-0123456789abcdef"
	bodies := []string{`{"graph": {"data": "<http://a> <http://b> <http://c> ."}}`, `{"graph": {"data": "<http://a> <b"}}`, `nope`,
		`{"graph": {"data": ""}, "tokenizer": "` + key + `x"}`}
	var answers strings.Builder
	for _, body := range bodies {
		for _, path := range []string{"/v1/serialize", "/v1/check", "/nope"} {
			req, _ := http.NewRequest("POST", url+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("X-Api-Key", key)
			resp, b := send(t, req)
			answers.Write(b)
			for k, v := range resp.Header {
				fmt.Fprintf(&answers, "%s: %s\n", k, v)
			}
		}
	}
	stop()
	if strings.Contains(stderr.String(), key) {
		t.Errorf("the key is in the server's output: %q", stderr.String())
	}
	// The tokenizer error quotes the tokenizer name sent in the body, not
	// a header: the header's key alone must never come back.
	if n := strings.Count(answers.String(), key); n != strings.Count(answers.String(), key+"x") {
		t.Errorf("a header's key is in the answers:\n%s", answers.String())
	}
}
