package webdriver

import "syscall"

// sysProcAttr puts the driver in a process group of its own (so that Stop
// can kill the browsers it starts: killTree) and has the kernel kill it
// when the calling process dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
