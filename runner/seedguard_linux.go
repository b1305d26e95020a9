package runner

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// guardSeed has the kernel send the guard SIGTERM when Sentinel dies; it
// says the command is to run under the guard.
func guardSeed(cmd *exec.Cmd, _ string) bool {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	return true
}

// SeedGuardMain runs args (a go command of the seed build) in the guard's
// own process group, which it leads, and returns its exit code; when the
// guard is told to end (its parent-death signal, or anyone's SIGTERM,
// SIGINT or SIGHUP) it kills the whole group, itself included. A signal
// before the handler is set ends the guard by default before it has
// started anything.
func SeedGuardMain(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "sentinel: "+SeedGuardArg+" needs a command")
		return 2
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "sentinel: seed guard: "+err.Error())
		return 1
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			return 1
		}
		return 0
	case <-stop:
		_ = syscall.Kill(0, syscall.SIGKILL) // the guard's group: the go command and all it started
		return 1
	}
}
