// Command sentinel runs an AI coding agent in a disposable, sandboxed copy of
// a project, routes every action it takes through one approval path, and
// lands the result only after review. This package parses flags and wires
// configuration into the packages below; it holds no logic of its own.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/mcpgate"
	"github.com/sentinelhq/sentinel/sandbox"
)

// root is the top command; each subcommand file adds itself in init.
var root = &cobra.Command{
	Use:   "sentinel",
	Short: "Hand a task to an AI coding agent and walk away safely",
	Long: `Sentinel runs a coding agent (the coder) under a pty, in a disposable copy of
your project, inside an OS sandbox. Every action the coder takes goes through
one approval path — policy, remembered templates, then you (or a supervisor
model) — and its work reaches your project only as a reviewed patch on a new
branch.`,
	SilenceUsage:  true,
	SilenceErrors: true,
}

func init() {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.CompletionOptions.HiddenDefaultCmd = true
}

// usageError marks a mistake in how the command was called (exit status 2).
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

// exitError carries a specific exit status with an optional message.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e exitError) Unwrap() error { return e.err }

func main() {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.HelperMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == mcpgate.Arg {
		os.Exit(mcpgate.Main(os.Args[2:]))
	}
	os.Exit(execute(os.Args[1:]))
}

func execute(args []string) int {
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(os.Stderr, "sentinel: "+textsafe.Block(ee.err.Error()))
		}
		return ee.code
	}
	fmt.Fprintln(os.Stderr, "sentinel: "+textsafe.Block(err.Error()))
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return 2
	}
	return 1
}

// isCobraUsage recognises cobra's own argument errors (unknown command,
// wrong number of args), which it does not type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires exactly", "unknown flag", "unknown shorthand"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
