// Package worker starts and controls the child processes that
// `isolda serve` runs large requests in: each in its own session and
// process group, at a lower CPU priority (also of its scheduling group), with an address-space bound the parent sets and
// raises, killed as a group when its time runs out. An out-of-memory child
// dies alone; its parent learns how it ended and its peak resident size.
//
// Isolation needs Linux (process groups, setpriority, prlimit);
// Supported reports false elsewhere, and callers then work in process.
package worker

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"sync"
)

// Options configure a started process.
type Options struct {
	// Nice is added to the child's CPU niceness (0 to 19; 10 lets it take
	// the CPUs the parent leaves idle, and little more).
	Nice int
	// Env is the child's environment (nil: the parent's).
	Env []string
	// StderrHead bounds the bytes of the child's standard error kept for
	// its exit report (default 4 KiB): the first ones, where the Go
	// runtime says why it died ("fatal error: out of memory").
	StderrHead int
}

// Process is a started child.
type Process struct {
	cmd *exec.Cmd
	// Stdin and Stdout are the child's standard input and output.
	Stdin  io.WriteCloser
	Stdout *bufio.Reader

	stderr *head

	mu     sync.Mutex
	exited bool
	exit   Exit
}

// Exit is how a child ended.
type Exit struct {
	// Err is the error of its wait: nil for exit status 0.
	Err error
	// Killed is true when Kill was called before it exited.
	Killed bool
	// PeakRSS is its largest resident set, in bytes (0 when unknown).
	PeakRSS int64
	// Stderr is the start of its standard error.
	Stderr string
}

// ErrUnsupported is the error of Start where isolation is not supported.
var ErrUnsupported = errors.New("worker: child processes for requests need Linux")

// Start starts argv[0] with the arguments argv[1:] in a new session (its
// own process group and, with autogroup, scheduling group) at the
// niceness opts.Nice (relative to the parent's), its standard input and
// output piped to the parent and killed when the parent dies.
func Start(argv []string, opts Options) (*Process, error) {
	if !Supported() {
		return nil, ErrUnsupported
	}
	if len(argv) == 0 {
		return nil, errors.New("worker: no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = opts.Env
	cmd.SysProcAttr = sysProcAttr()
	n := opts.StderrHead
	if n <= 0 {
		n = 4 << 10
	}
	p := &Process{cmd: cmd, stderr: &head{max: n}}
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.Stdin = in
	p.Stdout = bufio.NewReaderSize(out, 64<<10)
	if opts.Nice > 0 {
		// A failure leaves the child at the parent's priority: it still
		// works, only with less protection of the parent's latency.
		_ = setNice(cmd.Process.Pid, opts.Nice)
	}
	return p, nil
}

// Pid returns the child's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// LimitMemory sets the child's address-space bound (RLIMIT_AS): soft is
// the bound in force, hard the most it may ever be raised to (0: as
// soft). A hard bound can only be lowered.
func (p *Process) LimitMemory(soft, hard int64) error {
	if hard <= 0 {
		hard = soft
	}
	return limitAS(p.Pid(), soft, hard)
}

// Kill kills the child's process group (the child and anything it
// started), once it has not exited yet.
func (p *Process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited {
		return
	}
	p.exit.Killed = true
	killGroup(p.Pid())
}

// Wait closes the child's standard input, waits for it to end and reports
// how it ended. It is called once, after the parent read what it wanted
// from Stdout (the pipe closes when Wait returns).
func (p *Process) Wait() Exit {
	p.Stdin.Close()
	// Whatever the child still writes is read and dropped, so that it
	// cannot block on a full pipe before it exits.
	io.Copy(io.Discard, p.Stdout)
	err := p.cmd.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exited = true
	p.exit.Err = err
	p.exit.PeakRSS = peakRSS(p.cmd.ProcessState)
	p.exit.Stderr = p.stderr.String()
	return p.exit
}

// head keeps the first max bytes written to it.
type head struct {
	max int
	mu  sync.Mutex
	b   []byte
}

func (t *head) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := t.max - len(t.b); n > 0 {
		t.b = append(t.b, p[:min(n, len(p))]...)
	}
	return len(p), nil
}

func (t *head) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
