package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/isolda/isolda/chunk"
	"github.com/isolda/isolda/synth"
)

// bootWrapper is the command Prism's PROCESS environment runs: Beam's
// boot loader (BOOT) with its arguments, but for the quotes Prism
// v2.77.0 puts around the worker id (it passes --id='ID' to exec, not
// to a shell, so the boot loader would ask for a worker "'ID'" that is
// not registered).
const bootWrapper = `#!/bin/sh
for a in "$@"; do
  case "$a" in
    --id=\'*\') a="--id=$(printf %s "$a" | sed "s/^--id='//; s/'\$//")";;
  esac
  set -- "$@" "$a"; shift
done
exec BOOT "$@"
`

// TestProcessEnvironment runs the pipeline with the worker in a process
// of its own: isolda-beam and Beam's boot loader are built, and Prism
// starts the worker from the staged binary (--environment_type=PROCESS,
// --worker_binary), so the job depends on no state of the launcher. The
// output must equal the single-machine run's.
func TestProcessEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds two binaries and starts Prism with a worker process")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the worker binary and the boot loader")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bin, boot := filepath.Join(dir, "isolda-beam"), filepath.Join(dir, "boot")
	for _, b := range [][2]string{{bin, "."}, {boot, "github.com/apache/beam/sdks/v2/go/container"}} {
		cmd := exec.CommandContext(ctx, gobin, "build", "-o", b[0], b[1])
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	wrapper := filepath.Join(dir, "boot.sh")
	if err := os.WriteFile(wrapper, []byte(strings.Replace(bootWrapper, "BOOT", boot, 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	var graph bytes.Buffer
	if err := synth.Write(&graph, synth.Options{Triples: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "g.nt")
	if err := os.WriteFile(in, graph.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := chunk.Options{Budget: 512}
	want := singleMachine(t, graph.Bytes(), opts)
	out := filepath.Join(dir, "out", "c")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, "--input", in, "--output", out, "--shards", "2", "--budget", "512",
		"--environment_type=PROCESS", `--environment_config={"command":"`+wrapper+`"}`, "--worker_binary="+bin)
	cmd.Dir = dir // Beam's boot loader writes pipeline_options.json where it runs
	// The log goes to a file, not a pipe: Prism ends the boot loader when
	// the job is done, but the worker it started may run on a moment with
	// the launcher's output open. The launcher and the processes it starts
	// are one process group, killed when the run returns.
	logPath := filepath.Join(dir, "run.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		log, _ := os.ReadFile(logPath)
		t.Fatalf("isolda-beam with a PROCESS worker: %v\n%s", err, log)
	}
	var got []string
	for i := range 2 {
		data, err := os.ReadFile(shardName(out, i, 2))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.SplitAfter(string(data), "\n")...)
		got = got[:len(got)-1]
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("%d lines, want %d; or they differ", len(got), len(want))
	}
	t.Logf("%d documents equal, the worker in a process of its own", len(got))
}
