package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// wantArgs is every command's check of its positional arguments: from min
// to max of them (max < 0: no limit). A missing one is told with what, the
// question it answers and where to find the values ("which run? give a run
// id, …"), and example, a whole command line; an extra one names itself.
// Both are one line that names the command (after the "sentinel: " every
// error line starts with: "sentinel: show: which run? …"), and exit 2 as
// other usage errors do (cobra's own "accepts 1 arg(s), received 0" says
// none of this).
func wantArgs(min, max int, what, example string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		path := c.CommandPath()
		name := strings.TrimPrefix(path, c.Root().Name()+" ")
		switch {
		case len(args) < min:
			return usageError{fmt.Errorf("%s: %s, e.g. %s", name, what, example)}
		case max >= 0 && len(args) > max:
			extra := args[max]
			if max == 0 && c.HasAvailableSubCommands() {
				return usageError{fmt.Errorf("%s: no command %q; its commands are %s (see '%s --help')", name, extra, subNames(c), path)}
			}
			if max == 0 {
				return usageError{fmt.Errorf("%s takes no arguments, got %q (see '%s --help')", name, extra, path)}
			}
			return usageError{fmt.Errorf("%s: unexpected %q: it takes at most %d argument%s, e.g. %s", name, extra, max, plural(max), example)}
		}
		return nil
	}
}

// strayWord is the usage error for a word after a command that only
// groups others (policy, templates, …) that names none of them: cobra
// would print the group's help and exit 0, as if it had been understood.
func strayWord(root *cobra.Command, args []string) error {
	c, rest, err := root.Find(args)
	if err != nil || c == root || c.Runnable() || !c.HasSubCommands() {
		return nil
	}
	for _, a := range rest {
		if a == "--" || strings.HasPrefix(a, "-") {
			break // a flag (--help) is cobra's to judge
		}
		return noArgs(c, []string{a})
	}
	return nil
}

// noArgs is wantArgs for a command that takes none.
var noArgs = wantArgs(0, 0, "", "")

// runArg is the question a missing run asks, for the commands that take one.
const runArg = "which run? give a run id, a prefix of one, or 'last' (sentinel runs lists them)"

func subNames(c *cobra.Command) string {
	var names []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return strings.Join(names, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
