package webdriver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// HeadlessChromiumArgs are the flags that run Chromium headless, without a
// sandbox (containers), a GPU, or any network traffic of its own.
func HeadlessChromiumArgs() []string {
	return []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--disable-extensions", "--disable-default-apps"}
}

// DriverOptions configure Start.
type DriverOptions struct {
	// Path is the chromedriver executable; empty means "chromedriver" on
	// the PATH.
	Path string
	// Args are extra command-line flags of the driver.
	Args []string
	// Log receives the driver's standard output and error; nil discards
	// them.
	Log io.Writer
	// StartTimeout bounds the wait for the driver to be ready (default 20
	// seconds).
	StartTimeout time.Duration
}

// Driver is a chromedriver child process listening on a loopback port, with
// a Client for it. Stop ends it and every process it started.
type Driver struct {
	*Client
	cmd      *exec.Cmd
	exited   chan struct{} // closed when the process has been waited for
	waitErr  error
	stopOnce sync.Once
	stopErr  error
	stopCtx  context.CancelFunc
}

// Start runs chromedriver on a free loopback port and waits until it is
// ready. When ctx ends, the driver and its browsers are killed (tests pass
// a context that ends before the test binary's deadline); Stop must be
// called in any case. On Linux the driver also dies with the calling
// process.
func Start(ctx context.Context, opts DriverOptions) (*Driver, error) {
	path := opts.Path
	if path == "" {
		path = "chromedriver"
	}
	bin, err := exec.LookPath(path)
	if err != nil {
		return nil, fmt.Errorf("webdriver: %w", err)
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("webdriver: no free port: %w", err)
	}
	args := append([]string{"--port=" + strconv.Itoa(port)}, opts.Args...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = sysProcAttr()
	if opts.Log != nil {
		cmd.Stdout, cmd.Stderr = opts.Log, opts.Log
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("webdriver: starting %s: %w", bin, err)
	}
	d := &Driver{
		Client: NewClient("http://127.0.0.1:"+strconv.Itoa(port), nil),
		cmd:    cmd,
		exited: make(chan struct{}),
	}
	go func() {
		d.waitErr = cmd.Wait()
		close(d.exited)
	}()
	// Kill everything when ctx ends before Stop.
	watch, cancel := context.WithCancel(ctx)
	d.stopCtx = cancel
	go func() {
		select {
		case <-watch.Done():
			if ctx.Err() != nil {
				d.kill()
			}
		case <-d.exited:
		}
	}()

	timeout := opts.StartTimeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	err = WaitUntil(ctx, timeout, 50*time.Millisecond, func(ctx context.Context) (bool, error) {
		select {
		case <-d.exited:
			return false, fmt.Errorf("webdriver: %s exited before it was ready: %v", bin, d.waitErr)
		default:
		}
		s, err := d.Status(ctx)
		if err != nil {
			return false, nil // not listening yet
		}
		return s.Ready, nil
	})
	if err != nil {
		d.Stop()
		return nil, err
	}
	return d, nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// kill kills the driver and its process group.
func (d *Driver) kill() {
	killTree(d.cmd)
}

// Pid returns the process id of the driver.
func (d *Driver) Pid() int { return d.cmd.Process.Pid }

// Stop kills the driver and every process it started (its process group on
// Unix), then waits for it. Delete sessions first to let their browsers
// exit cleanly. Stop may be called more than once.
func (d *Driver) Stop() error {
	d.stopOnce.Do(func() {
		d.stopCtx()
		d.kill()
		select {
		case <-d.exited:
		case <-time.After(10 * time.Second):
			d.stopErr = errors.New("webdriver: the driver did not exit 10 s after it was killed")
		}
	})
	return d.stopErr
}
