package worker

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func needLinux(t *testing.T) {
	t.Helper()
	if !Supported() {
		t.Skip("worker processes need Linux")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

// niceOf reads the niceness of pid from /proc (field 19 of stat).
func niceOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The command name, in parentheses, may hold spaces: count after it.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	n, err := strconv.Atoi(f[16])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStartNiceLimitKill starts a shell that starts a grandchild, and
// checks the child's niceness and address-space bound as /proc shows
// them, and that Kill stops the whole group.
func TestStartNiceLimitKill(t *testing.T) {
	needLinux(t)
	p, err := Start([]string{"sh", "-c", "sleep 30 & echo $!; wait"}, Options{Nice: 10})
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.Stdout.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	want := min(19, niceOf(t, os.Getpid())+10)
	if got := niceOf(t, p.Pid()); got != want {
		t.Errorf("child niceness %d, want %d", got, want)
	}
	// With autogroup on, the child has a scheduling group of its own at
	// the same niceness.
	if on, err := os.ReadFile("/proc/sys/kernel/sched_autogroup_enabled"); err == nil && strings.TrimSpace(string(on)) == "1" {
		mine, _ := os.ReadFile("/proc/self/autogroup")
		its, err := os.ReadFile(fmt.Sprintf("/proc/%d/autogroup", p.Pid()))
		if err != nil || string(its) == string(mine) || !strings.HasSuffix(strings.TrimSpace(string(its)), fmt.Sprintf("nice %d", want)) {
			t.Errorf("child's autogroup %q (err %v), the test's %q: want one of its own at nice %d", its, err, mine, want)
		}
	}
	const soft, hard = 3 << 30, 4 << 30
	if err := p.LimitMemory(soft, hard); err != nil {
		t.Fatal(err)
	}
	limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", p.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	asLine := fmt.Sprintf("Max address space         %-21d%-21d", soft, hard)
	if !strings.Contains(string(limits), asLine) {
		t.Errorf("limits of the child:\n%s\nwant a asLine %q", limits, asLine)
	}
	start := time.Now()
	p.Kill()
	e := p.Wait()
	if !e.Killed || e.Err == nil {
		t.Errorf("after Kill: killed %v, err %v", e.Killed, e.Err)
	}
	t.Logf("killed and reaped in %s", time.Since(start))
	// The grandchild, in the same group, got SIGKILL too: once reaped by
	// init it is gone (a zombie meanwhile has state Z).
	deadline := time.Now().Add(time.Second)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", grandchild))
		if err != nil || strings.Contains(string(b[strings.LastIndexByte(string(b), ')'):]), ") Z") {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(grandchild, syscall.SIGKILL)
			t.Fatalf("the grandchild %d outlived the group's kill", grandchild)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestExitReport checks Wait reports a child's exit, the start of its
// standard error and its peak resident size.
func TestExitReport(t *testing.T) {
	needLinux(t)
	p, err := Start([]string{"sh", "-c", "echo 'fatal error: out of memory' >&2; head -c 100000 /dev/zero >&2; exit 2"}, Options{StderrHead: 64})
	if err != nil {
		t.Fatal(err)
	}
	e := p.Wait()
	if e.Killed || e.Err == nil || !strings.HasPrefix(e.Stderr, "fatal error: out of memory\n") || len(e.Stderr) != 64 {
		t.Errorf("exit: killed %v, err %v, stderr %q", e.Killed, e.Err, e.Stderr)
	}
	if e.PeakRSS <= 0 {
		t.Errorf("peak RSS %d", e.PeakRSS)
	}
}
