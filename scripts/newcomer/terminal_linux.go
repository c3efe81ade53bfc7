package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal and returns its follower side, the
// standard input every command reads: the README shows sessions typed at a
// terminal, and isolda tells a terminal apart from </dev/null (with no
// FILE it notes the demo-graph fallback only when standard input is not a
// terminal). The leader side is returned too, to keep the terminal open.
func openTerminal() (follower, leader *os.File, err error) {
	leader, err = os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(leader.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		leader.Close()
		return nil, nil, fmt.Errorf("unlock pseudo-terminal: %w", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		leader.Close()
		return nil, nil, fmt.Errorf("pseudo-terminal number: %w", err)
	}
	follower, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		leader.Close()
		return nil, nil, err
	}
	return follower, leader, nil
}
