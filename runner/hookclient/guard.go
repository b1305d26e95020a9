package hookclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/runner/dialects"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// A hook killed by a signal (SIGKILL, which UntilEndSignal cannot catch)
// or stopped past the agent's hook timeout is, to Codex 0.171, a failed
// hook, and Codex runs its call. So for the agents in guarded the hook
// command Codex starts is a guard: it starts itself again as the hook that
// asks the broker (the inner hook, envGuarded set), waits for it, and
// passes its answer on; an inner hook ended by a signal, or still not done
// by guardBound, is answered with a deny saying so. Codex waits on the
// guard, so a coder command that kills only the process holding the card
// gets the call refused and the model hears why.
//
// The guard alone is not a wall: it runs as the coder's uid in the
// coder's pid namespace, and a command that kills it (first, or both at
// once) would get the call run as before — which the broker's bypass
// watch sees (approvals/bypass.go). In place under the Linux sandbox each
// command Codex and Claude Code start runs in a Landlock signal scope of
// its own (internal/shellscope), so no command can signal the guard or
// the inner hook; the guard stays for a kernel without that scope.

// envGuarded marks the inner hook a guard started: its value is the
// guard's pid, which the inner hook checks is its parent. A value that
// came from anywhere else (a coder-written .envrc, .env or editor
// terminal env loaded into the person's shell before the next launch:
// 31-ipatk16) is no mark, so it cannot turn the guard off.
const envGuarded = "SENTINEL_HOOK_GUARDED"

// guarded are the agents whose hook runs under a guard: those that run a
// call whose hook died (runner/codex: Codex in place, where the hook is
// the only gate), and Claude Code, which in place (no
// denyInsteadOfPrompting: runner/claude's unattendedPermissions) takes a
// killed hook (sh -c's exit 137, a non-blocking error) as no answer and
// asks its own "Do you want to proceed? 1. Yes", where one Enter in its
// pane runs the call unchecked — measured with 2.1.332 under sentinel exec
// (cmd/sentinel/e2e/claude TestExecClaudeSessionHooksHold/KilledInnerHookBlocksTheCall);
// under the guard it gets exit 2 and refuses the call itself.
var guarded = []string{"codex", "claude"}

// guardSlack is how much longer than the inner hook's own wait (Timeout)
// the guard waits for it: past that the inner hook is stopped or stuck,
// and the guard denies before the agent's hook timeout (600 s) would run
// the call.
const guardSlack = 15 * time.Second

// startInner starts the inner hook: this program again, with its own
// arguments, marked by envGuarded. A variable so that tests can see it
// called.
var startInner = func(payload []byte, stdout, stderr io.Writer) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), envGuarded+"="+strconv.Itoa(os.Getpid())) // the last value wins
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd, cmd.Start()
}

// underGuard reports whether this hook invocation for adapter is to be a
// guard (false in the inner hook itself: its parent's pid is envGuarded's).
func underGuard(adapter string) bool {
	return slices.Contains(guarded, adapter) && !startedByGuard(os.Getenv(envGuarded), os.Getppid())
}

// startedByGuard says whether mark, envGuarded's value, is the pid of
// parent, the guard that started this hook.
func startedByGuard(mark string, parent int) bool {
	return mark != "" && parent > 1 && mark == strconv.Itoa(parent)
}

// Guard answers one hook invocation for adapter by way of an inner hook
// (see envGuarded) and returns the exit status. A report (PostToolUse,
// Stop) never blocks the agent, so it is answered here, in-process.
func Guard(ctx context.Context, adapter string, stdin io.Reader, stdout, stderr io.Writer, socket string) int {
	payload, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	dialect, lookupErr := dialects.Lookup(adapter)
	if err != nil || lookupErr != nil {
		// Run answers a payload it cannot read, or an unknown agent, with a deny.
		return Run(ctx, adapter, bytes.NewReader(payload), stdout, stderr, socket)
	}
	ev, err := dialect.Parse(payload)
	if err != nil || ev.Request == nil {
		return Run(ctx, adapter, bytes.NewReader(payload), stdout, stderr, socket)
	}
	fail := func(err error) int {
		a := hooks.Failure(dialect, ev.Name, err)
		stdout.Write(a.Stdout)
		fmt.Fprintln(stderr, "sentinel hook "+adapter+": "+a.Stderr)
		return a.Exit
	}
	var out, errOut bytes.Buffer
	cmd, err := startInner(payload, &out, &errOut)
	if err != nil {
		return fail(fmt.Errorf("start the hook's inner process: %w", err))
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	bound := time.NewTimer(Timeout() + guardSlack)
	defer bound.Stop()
	select {
	case err = <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		<-done
		return fail(context.Cause(ctx))
	case <-bound.C:
		cmd.Process.Kill()
		<-done
		return fail(fmt.Errorf("the hook's inner process gave no answer within %s (stopped?)", Timeout()+guardSlack))
	}
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Signaled() {
		return fail(fmt.Errorf("the hook's inner process was killed by %s before Sentinel answered", signalText(st.Signal())))
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return fail(fmt.Errorf("wait for the hook's inner process: %w", err))
	}
	stdout.Write(out.Bytes())
	stderr.Write(errOut.Bytes())
	return cmd.ProcessState.ExitCode()
}

// signalText is s as a person looks it up (SIGKILL), with its number.
func signalText(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM:
		return signalName(s)
	}
	return fmt.Sprintf("signal %d (%s)", int(s), s)
}
