package webdriver

import (
	"os/exec"
	"syscall"
)

// sysProcAttr puts the driver in a process group of its own (so that Stop
// can kill the browsers it starts) and has the kernel kill it when the
// calling process dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killTree kills the process group of cmd.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the group may be gone already
	_ = cmd.Process.Kill()
}
