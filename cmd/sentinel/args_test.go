package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command that takes arguments says which one is missing, with an
// example, in one line that names the command; none shows cobra's own
// "accepts 1 arg(s), received 0"; and a wrong count is a usage error (exit 2).
func TestMissingArgumentsNameTheCommand(t *testing.T) {
	cases := []struct {
		path []string
		want string // in the error for no arguments
	}{
		{[]string{"show"}, "show: which run? give a run id, a prefix of one, or 'last' (sentinel runs lists them)"},
		{[]string{"review"}, "review: which run?"},
		{[]string{"supervisor", "scan"}, "supervisor scan: which run?"},
		{[]string{"policy", "explain"}, "policy explain: which rule?"},
		{[]string{"queue", "approve"}, "queue approve: which request?"},
		{[]string{"queue", "deny"}, "queue deny: which request?"},
		{[]string{"templates", "show"}, "templates show: which template?"},
		{[]string{"templates", "rm"}, "templates rm: which template?"},
		{[]string{"templates", "test"}, "templates test: which command?"},
		{[]string{"sandbox", "run"}, "sandbox run: which program?"},
	}
	root := newRoot(nil)
	for _, tc := range cases {
		t.Run(strings.Join(tc.path, " "), func(t *testing.T) {
			c, _, err := root.Find(tc.path)
			if err != nil || c.Name() != tc.path[len(tc.path)-1] {
				t.Fatalf("no command %v: %v", tc.path, err)
			}
			err = c.ValidateArgs(nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ", e.g. sentinel "+strings.Join(tc.path, " ")) {
				t.Errorf("no arguments: %v, want %q and an example", err, tc.want)
			}
			if got := execute(tc.path); got != 2 {
				t.Errorf("exit %d, want 2", got)
			}
		})
	}
	// Every command, with none and with too many: never cobra's words.
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			walk(s)
		}
		if c.Args == nil || c == root || c.Name() == "hook" {
			return // any arguments (run's task text, exec's program); hook denies mistypes itself
		}
		name := strings.TrimPrefix(c.CommandPath(), "sentinel ")
		for _, args := range [][]string{nil, strings.Fields("a b c d e f g h i j")} {
			err := c.ValidateArgs(args)
			if err == nil {
				continue
			}
			msg := err.Error()
			var ue usageError
			if !errors.As(err, &ue) || !strings.HasPrefix(msg, name+" ") && !strings.HasPrefix(msg, name+":") || strings.Contains(msg, "\n") {
				t.Errorf("%s %v: %q: want one usage-error line naming %q", c.CommandPath(), args, msg, name)
			}
			for _, cobraWords := range []string{"accepts", "arg(s)", "received", "unknown command"} {
				if strings.Contains(msg, cobraWords) {
					t.Errorf("%s %v: %q: cobra's own words", c.CommandPath(), args, msg)
				}
			}
		}
	}
	walk(root)
}

// A word after a command that only groups others, naming none of them, is
// a usage error naming the commands — not the group's help and exit 0.
func TestStrayWordAfterAGroup(t *testing.T) {
	for _, group := range []string{"policy", "templates", "shims", "sandbox", "supervisor"} {
		args := []string{group, "frobnicate"}
		err := strayWord(newRoot(args), args)
		if err == nil || !strings.HasPrefix(err.Error(), group+`: no command "frobnicate"; its commands are `) {
			t.Errorf("%s frobnicate: %v", group, err)
		}
		if got := execute(args); got != 2 {
			t.Errorf("%s frobnicate: exit %d, want 2", group, got)
		}
		for _, ok := range [][]string{{group}, {group, "--help"}} {
			if err := strayWord(newRoot(ok), ok); err != nil {
				t.Errorf("%v: %v", ok, err)
			}
		}
	}
}
