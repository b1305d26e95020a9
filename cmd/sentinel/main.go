// Command sentinel runs an AI coding agent in a disposable, sandboxed copy of
// a project, routes every action it takes through one approval path, and
// lands the result only after review. This package parses flags and wires
// configuration into the packages below; it holds no logic of its own.
package main

import (
	"errors"
	"fmt"
	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/mcpgate"
	"github.com/sentinelhq/sentinel/runner/service"
	"github.com/sentinelhq/sentinel/sandbox"
)

// topCommand is one of sentinel's top-level commands: its name (the first
// word of its Use; no command has aliases) and the function that builds it
// with its subcommands.
type topCommand struct {
	name  string
	build func() *cobra.Command
}

// topCommands are sentinel's top-level commands. A start builds only the
// one it runs when its first argument names one (see newRoot): sentinel
// starts for every sandboxed command and, without sentinel-helper, every
// hook, and building the whole tree would cost each of them.
var topCommands = [...]topCommand{
	{"checkouts", newCheckoutsCmd},
	{"coder-demo", newCoderDemoCmd},
	{"config", newConfigCmd},
	{"console", newConsoleCmd},
	{"demo", newDemoCmd},
	{"doctor", newDoctorCmd},
	{"exec", newExecCmd},
	{"hook", newHookCmd},
	{"mcp", newMCPCmd},
	{"policy", newPolicyCmd},
	{"ps", newPsCmd},
	{"queue", newQueueCmd},
	{"review", newReviewCmd},
	{"run", newRunCmd},
	{"runs", newRunsCmd},
	{"sandbox", newSandboxCmd},
	{"service", newServiceCmd},
	{"shims", newShimsCmd},
	{"shim", newShimCmd},
	{"show", newShowCmd},
	{"status", newStatusCmd},
	{"supervisor", newSupervisorCmd},
	{"templates", newTemplatesCmd},
	{"undo", newUndoCmd},
	{"version", newVersionCmd},
}

// newRoot builds the top command for args. When args[0] names a top-level
// command, that command is the one cobra runs, and it alone is built; a
// lone --version needs no command. Anything else — no arguments, another
// flag first, help, completion, a mistyped name — gets the whole tree, so
// that help, completion, suggestions and usage errors see every command.
func newRoot(args []string) *cobra.Command {
	root := &cobra.Command{
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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.CompletionOptions.HiddenDefaultCmd = true
	defer addCompletions(root)
	wrapHelp(root)
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-v"):
		// Root alone prints the version.
	case len(args) > 0 && addTopCommand(root, args[0]):
		return root
	default:
		for _, tc := range topCommands {
			root.AddCommand(tc.build())
		}
	}
	// sentinel --version prints the same line as sentinel version (only
	// root has the flag, and root runs only here).
	root.Version = versionLine()
	root.SetVersionTemplate("{{.Version}}\n")
	return root
}

// addTopCommand adds the top-level command called name to root, if there
// is one.
func addTopCommand(root *cobra.Command, name string) bool {
	for _, tc := range topCommands {
		if tc.name == name {
			root.AddCommand(tc.build())
			return true
		}
	}
	return false
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
	if real, ok := shellscope.Invoked(); ok { // shown over a shell in the sandbox, without sentinel-helper
		os.Exit(shellscope.Main(real))
	}
	// Before anything starts a program: no loader entry of the person's
	// environment may send one to a library in its working directory
	// (the place, where the coder writes).
	hostbin.KeepLoaderOutOfTheWorkingDir()
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.HelperMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == mcpgate.Arg {
		os.Exit(mcpgate.Main(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == runner.SeedGuardArg {
		os.Exit(runner.SeedGuardMain(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == runner.GoCacheProgArg {
		os.Exit(runner.GoCacheProgMain(os.Args[2:]))
	}
	runner.ServesSeedGuard()
	// Every run of this binary (run, exec) registers with the user service
	// when it is up.
	runner.SetDefaultRegistrar(service.Registrar{})
	code := execute(os.Args[1:])
	// A Go build cache seed still being built dies with this process:
	// its working directory goes with it, not left under the seed root.
	runner.EndSeedBuilds()
	os.Exit(code)
}

func execute(args []string) int {
	root := newRoot(args)
	root.SetArgs(args)
	err := strayWord(root, args)
	if err == nil {
		err = root.Execute()
	}
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
