package main

// Shell completion: `sentinel completion bash|zsh|fish|powershell` is
// listed, and completes the values a person would otherwise look up — the
// coders for --coder, run ids (and 'last') where a run is asked for, queue
// ids for queue approve/deny, template ids for templates show/rm.

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// addCompletions gives every command in root's tree the completions its
// arguments and flags take.
func addCompletions(root *cobra.Command) {
	root.CompletionOptions.HiddenDefaultCmd = false
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if f := c.Flags().Lookup("coder"); f != nil {
			_ = c.RegisterFlagCompletionFunc("coder", fixed(runner.CoderNames()))
		}
		switch strings.TrimPrefix(c.CommandPath(), "sentinel ") {
		case "review", "show", "undo", "supervisor scan":
			c.ValidArgsFunction = firstArg(completeRunIDs)
		case "queue approve", "queue deny":
			c.ValidArgsFunction = firstArg(completeQueueIDs)
		case "templates show", "templates rm":
			c.ValidArgsFunction = firstArg(completeTemplateIDs)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

type completer = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)

func fixed(vals []string) completer {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// firstArg completes the first argument with list's values, and nothing after.
func firstArg(list func(*cobra.Command) []string) completer {
	return func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return list(c), cobra.ShellCompDirectiveNoFileComp
	}
}

func completeRunIDs(c *cobra.Command) []string {
	wd, _ := os.Getwd()
	p, err := runner.FindProject(c.Context(), wd)
	if err != nil {
		return nil
	}
	metas, err := verifiedRuns(p)
	if err != nil {
		return nil
	}
	ids := []string{"last"}
	for _, m := range metas {
		ids = append(ids, textsafe.Line(m.ID))
	}
	return ids
}

func completeQueueIDs(c *cobra.Command) []string {
	es, err := queue.Pending(c.Context())
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range es {
		ids = append(ids, textsafe.Line(e.ID)+"\t"+textsafe.Line(e.Summary))
	}
	return ids
}

func completeTemplateIDs(c *cobra.Command) []string {
	set, _, err := loadTemplateSet(c)
	if err != nil {
		return nil
	}
	var ids []string
	for _, t := range set.All() {
		ids = append(ids, textsafe.Line(t.ID)+"\t"+textsafe.Line(t.Match.String()))
	}
	return ids
}
