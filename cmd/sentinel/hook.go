package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
)

// hookTimeout bounds one hook's wait; the broker's own timeout (10 min by
// default) answers first, so this only catches a broker that hangs.
const hookTimeout = approvals.DefaultTimeout + time.Minute

func init() {
	hook := &cobra.Command{
		Use:   "hook AGENT",
		Short: "Answer a coding agent's hook from this run's broker (the coder calls this)",
		Long: `The runner installs 'sentinel hook <agent>' as the coder's tool-call hook. It
reads the agent's hook payload on stdin, asks the run's broker (found through
$` + approvals.EnvSocket + `) and prints the answer in the agent's format. Any problem — no
run, bad input, a broker that is gone, a timeout, a crash — is a deny with
exit status 2 and the reason on stderr, because agents let a failed hook's
tool call proceed.`,
		Args: cobra.NoArgs,
	}
	for _, a := range []string{approvals.HookClaude, approvals.HookCodex, approvals.HookGemini, approvals.HookCrush} {
		adapter := a
		hook.AddCommand(&cobra.Command{
			Use:   adapter,
			Short: "Answer a " + adapter + " hook",
			Args:  cobra.NoArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				code := runHook(c.Context(), adapter, os.Stdin, os.Stdout, os.Stderr, os.Getenv(approvals.EnvSocket))
				if code != 0 {
					return exitError{code: code}
				}
				return nil
			},
		})
	}
	root.AddCommand(hook)
}

// runHook answers one hook invocation and returns the exit status.
func runHook(ctx context.Context, adapter string, stdin io.Reader, stdout, stderr io.Writer, socket string) (code int) {
	event := ""
	fail := func(err error) int {
		a := approvals.HookFailure(adapter, event, err)
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
	ev, err := approvals.ParseHook(adapter, payload)
	if err != nil {
		return fail(err)
	}
	event = ev.Name
	ctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	if ev.Report != nil {
		// Reports never block the agent: a failure is a warning (exit 1).
		c, err := approvals.Dial(socket)
		if err == nil {
			err = c.Report(ctx, *ev.Report)
			c.Close()
		}
		if err != nil {
			fmt.Fprintln(stderr, "sentinel hook "+adapter+": could not report "+ev.Name+": "+err.Error())
			return 1
		}
		return 0
	}
	if ev.Request == nil {
		return fail(errors.New("the hook payload asks nothing"))
	}
	d, err := approvals.AskOnce(ctx, socket, *ev.Request)
	if err != nil {
		return fail(err)
	}
	a := approvals.FormatHookAnswer(ev, d)
	stdout.Write(a.Stdout)
	if a.Stderr != "" {
		fmt.Fprintln(stderr, a.Stderr)
	}
	return a.Exit
}
