package worker

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Supported reports whether requests can run in child processes here.
func Supported() bool { return true }

func sysProcAttr() *syscall.SysProcAttr {
	// Pdeathsig: a child outlives no parent (a killed server leaves no
	// orphan working on). Setsid: a session of its own is a process group
	// of its own (Kill stops the group) and, where the kernel groups
	// sessions for the scheduler (autogroup), a scheduling group of its
	// own: the child's CPU time is not charged to the server's session.
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// setNice raises the niceness of pid by n above the parent's, and that of
// its scheduling group (autogroup) likewise, so that the child competes
// at low weight with the server and with the machine's other sessions.
func setNice(pid, n int) error {
	cur, err := unix.Getpriority(unix.PRIO_PROCESS, 0)
	if err != nil {
		return err
	}
	// The raw getpriority value is 20 - nice.
	nice := min(19, 20-cur+n)
	if err := unix.Setpriority(unix.PRIO_PROCESS, pid, nice); err != nil {
		return err
	}
	// Without autogroup (off, or the process in a cgroup of its own) the
	// file is missing or refuses: the process niceness above remains.
	_ = os.WriteFile(fmt.Sprintf("/proc/%d/autogroup", pid), []byte(strconv.Itoa(nice)), 0)
	return nil
}

func limitAS(pid int, soft, hard int64) error {
	return unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: uint64(soft), Max: uint64(hard)}, nil)
}

func killGroup(pid int) {
	// The group's id is the child's pid (Setpgid); a child that already
	// exited leaves ESRCH, which is fine.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// peakRSS returns the peak resident set of an exited child (ru_maxrss,
// KiB on Linux).
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}

// VirtualSize returns this process's virtual memory size (VmSize of
// /proc/self/status), in bytes; 0 when unknown. A child reports it to its
// parent, which sets the address-space bound above it.
func VirtualSize() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return n << 10
				}
			}
		}
	}
	return 0
}
