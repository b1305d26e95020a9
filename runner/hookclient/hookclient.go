// Package hookclient is the client side of an agent's hook: it reads the
// agent's payload on stdin, asks the run's broker and prints the answer in
// the agent's dialect. Both `sentinel hook <agent>` and the small
// `sentinel-helper hook <agent>` (cmd/sentinel-helper) are this code; it
// imports only the dialects and the broker's wire (approvals/wire), because
// it runs on every tool call: one connect, one write and one read on the
// broker's socket, and none of the policy engine, TOML or net package
// (whose cgo resolver would start every hook through the dynamic loader).
// For an agent that runs a call whose hook was killed (Codex), or falls
// back to its own yes/no dialog (Claude Code in place), the hook is a guard waiting on a second copy of itself that asks (guard.go).
package hookclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/runner/claude/claudehook"
	"github.com/sentinelhq/sentinel/runner/dialects"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// defaultTimeout bounds one hook's wait when the runner does not say
// (wire.EnvHookTimeout). It is below the 600 s hook timeout agents are
// configured with, because an agent lets a timed-out hook's call proceed:
// the hook must deny first.
const defaultTimeout = 9*time.Minute + 30*time.Second

// Timeout is one hook's wait: wire.EnvHookTimeout when it holds a
// positive duration, else defaultTimeout.
func Timeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(wire.EnvHookTimeout)); err == nil && d > 0 {
		return d
	}
	return defaultTimeout
}

// Mistyped answers a hook command that names no agent, or more than one
// word: a deny in Claude Code's dialect (exit 2), never help and exit 0,
// which an agent would take as "go ahead". It returns the exit status and
// the reason for stderr.
func Mistyped(args []string, stdout io.Writer) (int, string) {
	err := fmt.Errorf("name the agent: sentinel hook %s (got %q)", strings.Join(dialects.Names(), "|"), strings.Join(args, " "))
	a := hooks.Failure(claudehook.HookDialect, "", err)
	stdout.Write(a.Stdout)
	return 2, "hook: " + a.Stderr
}

// Main is `hook ARGS...` for a program without a command-line parser: one
// argument naming the agent, else a deny.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 || !slices.Contains(dialects.Names(), args[0]) {
		code, msg := Mistyped(args, stdout)
		fmt.Fprintln(stderr, "sentinel: "+msg)
		return code
	}
	ctx, stop := UntilEndSignal(context.Background())
	defer stop()
	return Answer(ctx, args[0], stdin, stdout, stderr, os.Getenv(wire.EnvSocket))
}

// Answer is Run, under a guard for the agents that run a call whose hook
// was killed (Guard).
func Answer(ctx context.Context, adapter string, stdin io.Reader, stdout, stderr io.Writer, socket string) int {
	if underGuard(adapter) {
		return Guard(ctx, adapter, stdin, stdout, stderr, socket)
	}
	return Run(ctx, adapter, stdin, stdout, stderr, socket)
}

// endSignals are the signals that would end a hook before it answers: a
// hangup, an interrupt, a termination (its agent's process group ended or
// its terminal gone, as when a run stops).
var endSignals = []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM}

// UntilEndSignal is parent ended also by one of endSignals, its cause
// naming the signal: the context a hook command answers in (Main, and
// `sentinel hook`); stop ends it and lets the signals go. Unhandled, such
// a signal ends the hook with no exit status and no answer, and Codex runs
// a call whose hook ended so; caught, the wait for the broker ends and the
// hook answers a deny saying why. SIGKILL cannot be caught: a guard
// (Guard) answers for a hook killed so, and the broker's bypass watch
// (approvals/bypass.go) sees a call that ran after the guard was killed too.
func UntilEndSignal(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, endSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(fmt.Errorf("the hook was sent %s before Sentinel answered", signalName(s)))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// signalName is s as a person looks it up: SIGTERM, not "terminated".
func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// Run answers one hook invocation in adapter's dialect (an unknown adapter
// is denied in Claude Code's) and returns the exit status. Any problem —
// no run, bad input, a broker that is gone, a timeout, a crash — is a deny
// saying why, because agents let a failed hook's tool call proceed.
func Run(ctx context.Context, adapter string, stdin io.Reader, stdout, stderr io.Writer, socket string) (code int) {
	dialect, lookupErr := dialects.Lookup(adapter)
	if lookupErr != nil {
		dialect = claudehook.HookDialect
	}
	event := ""
	fail := func(err error) int {
		a := hooks.Failure(dialect, event, err)
		stdout.Write(a.Stdout)
		fmt.Fprintln(stderr, "sentinel hook "+adapter+": "+a.Stderr)
		return a.Exit
	}
	defer func() {
		if r := recover(); r != nil {
			code = fail(fmt.Errorf("internal error: %v", r))
		}
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, 64<<20))
	if err != nil {
		return fail(fmt.Errorf("read the hook payload: %w", err))
	}
	if lookupErr != nil {
		return fail(lookupErr)
	}
	ev, err := dialect.Parse(payload)
	if err != nil {
		return fail(err)
	}
	event = ev.Name
	// The socket's own timeout bounds the wait (no timer: see wire.AskWithin).
	wait := Timeout()
	if ev.Report != nil {
		// Reports never block the agent: a failure is a warning (exit 1).
		note, err := wire.ReportOnce(ctx, socket, *ev.Report, wait)
		if err != nil {
			fmt.Fprintln(stderr, "sentinel hook "+adapter+": could not report "+ev.Name+": "+err.Error())
			return 1
		}
		// What Sentinel refused while the tool ran (a host the proxy
		// turned away) reaches the model with the tool's result.
		stdout.Write(dialect.Note(ev, note))
		return 0
	}
	if ev.Request == nil {
		return fail(errors.New("the hook payload asks nothing"))
	}
	// A dialect's own steps around the ask (a run's Claude: its
	// PermissionRequest step only ever denies, claudehook).
	steps, _ := dialect.(hooks.Steps)
	if steps != nil {
		if a, ok := steps.Before(ev, socket); ok {
			stdout.Write(a.Stdout)
			return a.Exit
		}
	}
	// On any failure AskOnce returns a deny saying why; it is answered the same way.
	d, askErr := wire.AskWithin(ctx, socket, *ev.Request, wait)
	if askErr != nil && ctx.Err() != nil {
		d = wire.DenyBy("error", context.Cause(ctx).Error()) // why the wait ended, not "context canceled"
	}
	a := dialect.Answer(ev, d)
	if steps != nil && !d.Allowed() {
		if alt, ok := steps.AfterDeny(ev, payload, d, askErr, socket); ok {
			a = alt
		}
	}
	stdout.Write(a.Stdout)
	if a.Stderr != "" {
		fmt.Fprintln(stderr, "sentinel hook "+adapter+": "+a.Stderr)
	}
	return a.Exit
}
