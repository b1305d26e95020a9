package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

func newQueueShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show a waiting request's whole card: what a write or edit writes, and the hash that approves it",
		Args:  wantArgs(1, 1, "which request? give its id (sentinel queue lists them)", "sentinel queue show 3f9a1c2b"),
		RunE: func(c *cobra.Command, args []string) error {
			entries, err := queue.Pending(c.Context())
			if err != nil {
				return err
			}
			for _, e := range entries {
				if e.ID == args[0] {
					writeQueueCard(c.OutOrStdout(), e, time.Now())
					return nil
				}
			}
			return fmt.Errorf("no request %q is waiting (sentinel queue lists them)", textsafe.Line(args[0]))
		},
	}
}

// writeQueueCard prints e's card in full, every line made safe for a
// terminal; a write's or edit's ends with the hash that approves it.
func writeQueueCard(w io.Writer, e queue.Entry, now time.Time) {
	row := func(k, v string) {
		if v != "" {
			fmt.Fprintf(w, "%-9s %s\n", k+":", textsafe.Line(v))
		}
	}
	row("request", e.ID)
	row("run", e.Run)
	row("project", e.Project)
	row("coder", e.Coder)
	row("kind", string(e.Kind))
	row("waiting", ago(now.Sub(e.WaitingSince)))
	row("request", e.Summary)
	if e.Request.Path != "" {
		fmt.Fprintf(w, "%-9s %s\n", "path:", textsafe.Strict(e.Request.Path))
	}
	row("policy", e.Policy.Reason)
	row("rule", e.Policy.Rule)
	seen := queue.SeenOf(e.Request)
	if seen == "" {
		fmt.Fprintf(w, "\nsentinel queue approve %s    sentinel queue deny %s\n", e.ID, e.ID)
		return
	}
	lines, ok := queue.ContentOf(e.Request)
	if !ok {
		// It carries no content: nothing here may approve it.
		fmt.Fprintf(w, "\nits content cannot be shown here: answer it in sentinel console, or deny it (sentinel queue deny %s)\n", e.ID)
		return
	}
	if len(lines) > 0 && lines[0].Sign == queue.SignSummary {
		fmt.Fprintf(w, "\n%s (a summary; the content is not text):\n", map[bool]string{true: "content", false: "change"}[e.Request.Kind == policy.KindWrite])
	} else {
		fmt.Fprintf(w, "\n%s (%d lines):\n", map[bool]string{true: "content", false: "change"}[e.Request.Kind == policy.KindWrite], len(lines))
	}
	for _, l := range lines {
		fmt.Fprintf(w, "%s %s\n", l.Sign, textsafe.Line(l.Text))
	}
	fmt.Fprintf(w, "\nseen:     %s\napprove:  sentinel queue approve %s --seen %s\ndeny:     sentinel queue deny %s\n", seen, e.ID, seen, e.ID)
}
