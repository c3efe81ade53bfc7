//go:build unix

package webdriver

import (
	"os/exec"
	"syscall"
)

// killTree kills the process group of cmd (sysProcAttr gave the driver a
// group of its own).
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the group may be gone already
	_ = cmd.Process.Kill()
}
