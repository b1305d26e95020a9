package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/runner/dialects"
	"github.com/sentinelhq/sentinel/runner/hookclient"
)

func newHookCmd() *cobra.Command {
	hook := &cobra.Command{
		Use:   "hook AGENT",
		Short: "Answer a coding agent's hook from this run's broker (the coder calls this)",
		Long: `The runner installs 'sentinel-helper hook <agent>' (or, without the helper
beside this binary, 'sentinel hook <agent>') as the coder's tool-call hook. It
reads the agent's hook payload on stdin, asks the run's broker (found through
$` + approvals.EnvSocket + `) and prints the answer in the agent's format. Any problem — no
run, bad input, a broker that is gone, a timeout, a crash — is a deny with
exit status 2 and the reason on stderr, because agents let a failed hook's
tool call proceed.`,
		// A mistyped hook command must deny too (exit 2), never print help and
		// exit 0, which an agent would take as "go ahead".
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			code, msg := hookclient.Mistyped(args, os.Stdout)
			return exitError{code: code, err: errors.New(msg)}
		},
	}
	for _, a := range dialects.Names() {
		adapter := a
		hook.AddCommand(&cobra.Command{
			Use:   adapter,
			Short: "Answer a " + adapter + " hook",
			Args:  noArgs,
			RunE: func(c *cobra.Command, _ []string) error {
				ctx, stop := hookclient.UntilEndSignal(c.Context())
				defer stop()
				code := hookclient.Answer(ctx, adapter, os.Stdin, os.Stdout, os.Stderr, os.Getenv(approvals.EnvSocket))
				if code != 0 {
					return exitError{code: code}
				}
				return nil
			},
		})
	}
	return hook
}
