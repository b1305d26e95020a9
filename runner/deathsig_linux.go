package runner

import (
	"os/exec"
	"syscall"
)

// dieWithSentinel has the kernel kill cmd when sentinel dies (the sandbox's
// own parent-death signal, when set, is kept).
func dieWithSentinel(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	if cmd.SysProcAttr.Pdeathsig == 0 {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
}
