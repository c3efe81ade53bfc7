//go:build unix && !linux

package webdriver

import (
	"os/exec"
	"syscall"
)

// sysProcAttr puts the driver in a process group of its own, so that Stop
// can kill the browsers it starts.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killTree kills the process group of cmd.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the group may be gone already
	_ = cmd.Process.Kill()
}
