//go:build unix && !linux

package webdriver

import "syscall"

// sysProcAttr puts the driver in a process group of its own, so that Stop
// can kill the browsers it starts (killTree).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
