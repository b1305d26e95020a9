//go:build unix

package procgroup

import (
	"errors"
	"os/exec"
	"syscall"
)

// Own makes cmd, not yet started, lead a process group of its own, unless
// it already starts a session or group.
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if !cmd.SysProcAttr.Setsid {
		cmd.SysProcAttr.Setpgid = true
	}
}

// Session makes cmd, not yet started, lead a session of its own (no
// controlling terminal; its own process group), unless it already starts
// a group.
func Session(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if !cmd.SysProcAttr.Setpgid {
		cmd.SysProcAttr.Setsid = true
	}
}

// Kill ends the process group that pid leads, at once.
func Kill(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// Alive says whether pid names a live process (one of another user's
// counts: it is there).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// GroupAlive says whether any process is left in the process group that
// pid led.
func GroupAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(-pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Term asks the process group that pid leads to end (SIGTERM).
func Term(pid int) error { return syscall.Kill(-pid, syscall.SIGTERM) }

// SetCtty makes the child's fd the controlling terminal of the session
// cmd starts.
func SetCtty(cmd *exec.Cmd, fd int) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Ctty = fd
}
