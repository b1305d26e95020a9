package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/spf13/cobra"
)

// TestHelpListsEveryCommand: sentinel --help (the whole tree) lists the
// commands it always has (completion among them: #37), and the hidden ones
// stay hidden.
func TestHelpListsEveryCommand(t *testing.T) {
	r := e2etest.Sentinel(t, t.TempDir(), nil, "--help")
	if r.Code != 0 {
		t.Fatalf("sentinel --help: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	_, list, ok := strings.Cut(r.Stdout, "Available Commands:\n")
	if !ok {
		t.Fatalf("sentinel --help lists no commands:\n%s", r.Stdout)
	}
	list, _, _ = strings.Cut(list, "\n\n")
	var got []string
	for _, line := range strings.Split(list, "\n") {
		got = append(got, strings.Fields(line)[0])
	}
	want := []string{"checkouts", "completion", "config", "console", "demo", "doctor", "exec", "help", "hook", "mcp", "policy", "ps",
		"queue", "review", "run", "runs", "sandbox", "service", "shims", "show", "status", "supervisor", "templates", "undo", "version"}
	if !slices.Equal(got, want) {
		t.Errorf("sentinel --help lists\n  %v\nwant\n  %v", got, want)
	}
}

// TestTopCommandsAreTheirNames: newRoot finds a command by args[0] among
// topCommands' names, so each name must be what cobra matches: the
// command's own name, with no alias that only the whole tree would know.
func TestTopCommandsAreTheirNames(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range topCommands {
		c := tc.build()
		if c.Name() != tc.name {
			t.Errorf("topCommands names %q for the command %q", tc.name, c.Name())
		}
		if len(c.Aliases) > 0 {
			t.Errorf("%s has aliases %v, which newRoot does not look up", tc.name, c.Aliases)
		}
		if seen[tc.name] {
			t.Errorf("%s is in topCommands twice", tc.name)
		}
		seen[tc.name] = true
	}
}

// TestCommandBuiltAloneAsInTheWholeTree: a command built alone under root
// (what a start that names it gets) answers --help, help, and a mistake
// exactly as the whole tree does, down to its subcommands.
func TestCommandBuiltAloneAsInTheWholeTree(t *testing.T) {
	for _, tc := range topCommands {
		invocations := [][]string{{tc.name, "--help"}, {tc.name, "-h"}, {tc.name, "--version"}, {tc.name, "--no-such-flag"}}
		for _, sub := range tc.build().Commands() {
			invocations = append(invocations, []string{tc.name, sub.Name(), "--help"}, []string{tc.name, sub.Name(), "--no-such-flag"})
		}
		// hook runs on any argument (to deny a mistyped hook), printing
		// to the process's stdout.
		if len(tc.build().Commands()) > 0 && tc.name != "hook" {
			invocations = append(invocations, []string{tc.name, "no-such-subcommand"})
		}
		for _, args := range invocations {
			alone, aloneErr := runRoot(newRoot(args), args)
			whole, wholeErr := runRoot(newRoot(nil), args)
			if alone != whole || aloneErr != wholeErr {
				t.Errorf("sentinel %s built alone:\n%s\nerror: %s\nthe whole tree:\n%s\nerror: %s", strings.Join(args, " "), alone, aloneErr, whole, wholeErr)
			}
		}
	}
	for _, args := range [][]string{{"--version"}, {"-v"}, {"--version", "--help"}, {"-v", "run"}} {
		alone, aloneErr := runRoot(newRoot(args), args)
		whole, wholeErr := runRoot(newRoot(nil), args)
		if alone != whole || aloneErr != wholeErr {
			t.Errorf("sentinel %s:\n%s\nerror: %s\nthe whole tree:\n%s\nerror: %s", strings.Join(args, " "), alone, aloneErr, whole, wholeErr)
		}
	}
	// The whole tree was built for these, and help shows it.
	for _, args := range [][]string{nil, {"--help"}, {"help"}, {"runn"}} {
		out, errText := runRoot(newRoot(args), args)
		if !regexp.MustCompile(`(?m)^  sandbox +Run commands`).MatchString(out+errText) && !strings.Contains(errText, `Did you mean this?`) {
			t.Errorf("sentinel %s does not see the whole tree:\n%s\nerror: %s", strings.Join(args, " "), out, errText)
		}
	}
}

// runRoot executes root with args in process (for help and usage errors
// only: nothing runs) and returns what it printed and its error's text.
func runRoot(root *cobra.Command, args []string) (out, errText string) {
	var b bytes.Buffer
	root.SetOut(&b)
	root.SetErr(&b)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		errText = err.Error()
	}
	return b.String(), errText
}

// BenchmarkNewRoot is what building the commands costs a start: the whole
// tree (help, completion, a mistyped name) against the one command a
// sandboxed command or a hook runs.
func BenchmarkNewRoot(b *testing.B) {
	for _, args := range [][]string{nil, {"sandbox", "run"}, {"hook", "claude"}, {"--version"}} {
		b.Run(strings.Join(append([]string{"sentinel"}, args...), "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				newRoot(args)
			}
		})
	}
}
