package procgroup

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// Own starts cmd in a new process group (so a console Ctrl-C meant for
// Sentinel does not reach it).
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
}

// Session is Own on Windows (a console process has no session to lead).
func Session(cmd *exec.Cmd) { Own(cmd) }

// Kill ends the process pid (not its children: see the package doc).
func Kill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	defer p.Release()
	return p.Kill()
}

// GroupAlive is false on Windows: a process there leads no group.
func GroupAlive(pid int) bool { return false }

// Alive says whether pid names a live process.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return err == windows.ERROR_ACCESS_DENIED
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return false
	}
	return code == 259 // STILL_ACTIVE
}

// Term ends the process pid: Windows has no SIGTERM to ask with.
func Term(pid int) error { return Kill(pid) }

// SetCtty does nothing: Windows has no controlling terminals.
func SetCtty(cmd *exec.Cmd, fd int) {}
