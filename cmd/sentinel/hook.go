package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
)

// defaultHookTimeout bounds one hook's wait when the runner does not say
// (approvals.EnvHookTimeout). It is below the 600 s hook timeout agents are
// configured with, because an agent lets a timed-out hook's call proceed:
// the hook must deny first.
const defaultHookTimeout = 9*time.Minute + 30*time.Second

func hookTimeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(approvals.EnvHookTimeout)); err == nil && d > 0 {
		return d
	}
	return defaultHookTimeout
}

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
		// A mistyped hook command must deny too (exit 2), never print help and
		// exit 0, which an agent would take as "go ahead".
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			err := fmt.Errorf("name the agent: sentinel hook claude|codex|gemini|crush (got %q)", strings.Join(args, " "))
			a := approvals.HookFailure(approvals.HookClaude, "", err)
			os.Stdout.Write(a.Stdout)
			return exitError{code: 2, err: errors.New("hook: " + a.Stderr)}
		},
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
	ctx, cancel := context.WithTimeout(ctx, hookTimeout())
	defer cancel()
	if ev.Report != nil {
		// Reports never block the agent: a failure is a warning (exit 1).
		c, err := approvals.Dial(socket)
		note := ""
		if err == nil {
			note, err = c.ReportNote(ctx, *ev.Report)
			c.Close()
		}
		if err != nil {
			fmt.Fprintln(stderr, "sentinel hook "+adapter+": could not report "+ev.Name+": "+err.Error())
			return 1
		}
		// What Sentinel refused while the tool ran (a host the proxy
		// turned away) reaches the model with the tool's result.
		stdout.Write(approvals.FormatReportNote(ev, note))
		return 0
	}
	if ev.Request == nil {
		return fail(errors.New("the hook payload asks nothing"))
	}
	// On any failure AskOnce returns a deny saying why; it is answered the same way.
	d, _ := approvals.AskOnce(ctx, socket, *ev.Request)
	a := approvals.FormatHookAnswer(ev, d)
	stdout.Write(a.Stdout)
	if a.Stderr != "" {
		fmt.Fprintln(stderr, "sentinel hook "+adapter+": "+a.Stderr)
	}
	return a.Exit
}
