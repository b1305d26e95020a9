package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/tui/plain"
)

func newShowCmd() *cobra.Command {
	var lane string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show RUN|FILE",
		Short: "Print a run's events (RUN is a run id, a unique prefix of one, or 'last'; FILE a journal such as sentinel mcp's audit)",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if lane != "" && !journal.Lane(lane).Valid() {
				return usageError{fmt.Errorf("--lane %q: want one of system, coder, tool, approval, supervisor, adversary", lane)}
			}
			evs, err := showEvents(c, args[0])
			if err != nil {
				return err
			}
			if asJSON {
				for _, ev := range evs {
					if lane == "" || string(ev.Lane) == lane {
						b, _ := jsonLine(ev)
						os.Stdout.Write(b)
					}
				}
				return nil
			}
			pr := plain.NewPrinter(os.Stdout, term.IsTerminal(int(os.Stdout.Fd())) && os.Getenv("NO_COLOR") == "")
			for _, ev := range evs {
				if lane == "" || string(ev.Lane) == lane {
					pr.Print(ev)
				}
			}
			pr.Flush()
			return nil
		},
	}
	cmd.Flags().StringVar(&lane, "lane", "", "only this lane: system, coder, tool, approval, supervisor, adversary")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the events as JSON Lines")
	return cmd
}

// showEvents reads the journal arg names: a journal file given by path
// (one holding a / or ending in .jsonl, e.g. sentinel mcp's audit journal), or a run.
func showEvents(c *cobra.Command, arg string) ([]journal.Event, error) {
	if strings.Contains(arg, "/") || strings.HasSuffix(arg, ".jsonl") {
		evs, err := journal.ReadFile(arg)
		if err != nil {
			return nil, fmt.Errorf("journal %s: %w", arg, err)
		}
		return evs, nil
	}
	wd, _ := os.Getwd()
	p, err := runner.FindProject(c.Context(), wd)
	if err != nil {
		return nil, err
	}
	id, err := resolveRun(p, arg)
	if err != nil {
		return nil, err
	}
	evs, err := journal.ReadFile(filepath.Join(p.RunDir(id), "events.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	return evs, nil
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
