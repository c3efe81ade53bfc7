package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/isolda/isolda/server"
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

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeCommand runs `isolda serve` with limit flags on a free port and
// checks a limit is applied.
func TestServeCommand(t *testing.T) {
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	env := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: stderr}
	root := newRootCmd(env)
	wired := false
	for _, c := range root.Commands() {
		if c.Name() == "serve" {
			wired = true
		}
	}
	if !wired {
		root.AddCommand(newServeCmd(env))
	}
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--max-request-bytes", "100", "--timeout", "5s"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	re := regexp.MustCompile(`listening on (http://[^\s]+)`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
			break
		}
	}
	if url == "" {
		t.Fatalf("no listening line: %q", stderr.String())
	}
	resp, err := http.Post(url+"/v1/check", "application/json", strings.NewReader(`{"graph": {"data": "`+strings.Repeat(" ", 200)+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("--max-request-bytes 100: status %d", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
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
	if c, _, _ := root.Find([]string{"serve"}); c == nil || c.Name() != "serve" {
		root.AddCommand(newServeCmd(env))
	}
	root.SetArgs([]string{"serve", "--addr", "256.0.0.1:http-nope"})
	err := root.Execute()
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput {
		t.Errorf("error %v, want a bad-input exit", err)
	}
}
