//go:build !unix

package webdriver

import (
	"os/exec"
	"syscall"
)

// sysProcAttr has nothing to add outside Unix.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killTree kills the driver (its browsers end with their sessions).
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
