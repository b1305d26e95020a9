package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/tui"
	"github.com/sentinelhq/sentinel/tui/plain"
)

func newShowCmd() *cobra.Command {
	var lane string
	var asJSON, noFollow bool
	cmd := &cobra.Command{
		Use:   "show RUN|FILE",
		Short: "Print a run's events, following a live run until it ends (RUN is a run id, a unique prefix of one, or 'last'; FILE a journal such as sentinel mcp's audit)",
		Args:  wantArgs(1, 1, runArg+", or a journal file", "sentinel show last"),
		RunE: func(c *cobra.Command, args []string) error {
			if lane != "" && !journal.Lane(lane).Valid() {
				return usageError{fmt.Errorf("--lane %q: want one of system, coder, tool, approval, supervisor, adversary", lane)}
			}
			path, live, err := showJournal(c, args[0])
			if err != nil {
				return err
			}
			if noFollow {
				live = nil
			}
			// The journal is streamed, one event at a time: a run with
			// millions of coder lines is printed in constant memory, and
			// a live run's events as they are written, until it ends.
			var each func(journal.Event) error
			var pr *plain.Printer
			if asJSON {
				each = func(ev journal.Event) error {
					b, _ := jsonLine(ev)
					_, err := os.Stdout.Write(b)
					return err
				}
			} else {
				pr = plain.NewPrinter(os.Stdout, tui.PlainTags(os.Stdout, ""))
				each = func(ev journal.Event) error { pr.Print(ev); return nil }
			}
			err = journal.Follow(c.Context(), path, live, func(ev journal.Event) error {
				if lane != "" && string(ev.Lane) != lane {
					return nil
				}
				return each(ev)
			})
			if pr != nil {
				pr.Flush()
			}
			if err != nil {
				return fmt.Errorf("journal %s: %w", path, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&lane, "lane", "", "only this lane: system, coder, tool, approval, supervisor, adversary")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the events as JSON Lines")
	cmd.Flags().BoolVar(&noFollow, "no-follow", false, "print what a live run has journalled so far and exit")
	return cmd
}

// showJournal is the journal file arg names: a journal given by path (one
// holding a / or ending in .jsonl, e.g. sentinel mcp's audit journal), or a
// run's; live says whether its run is still at work (nil for a file).
func showJournal(c *cobra.Command, arg string) (string, func() bool, error) {
	if strings.Contains(arg, "/") || strings.HasSuffix(arg, ".jsonl") {
		return arg, nil, nil
	}
	wd, _ := os.Getwd()
	p, err := runner.FindProject(c.Context(), wd)
	if err != nil {
		return "", nil, err
	}
	id, err := resolveRun(p, arg)
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(p.RunDir(id), "events.jsonl"), func() bool { return runner.RunLive(p, id) }, nil
}

// resolveRun turns a run id, a unique prefix or "last" into a run id.
func resolveRun(p *runner.Project, arg string) (string, error) {
	metas, err := verifiedRuns(p)
	if err != nil {
		return "", err
	}
	if len(metas) == 0 {
		return "", fmt.Errorf("no runs in %s yet", p.Root)
	}
	if arg == "last" {
		return metas[0].ID, nil
	}
	var found []string
	for _, m := range metas {
		if m.ID == arg {
			return arg, nil
		}
		if strings.HasPrefix(m.ID, arg) {
			found = append(found, m.ID)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no run %q (see 'sentinel runs')", arg)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%q matches %d runs (%s, …): give more of the id", arg, len(found), found[0])
}
