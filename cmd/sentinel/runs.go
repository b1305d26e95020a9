package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinelhq/sentinel/runner"
)

func newRunsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List this repository's runs: status, coder, task, duration, decisions",
		Long: `List the runs of the git repository you are in, newest first. A run whose
sentinel process died (killed, crashed, terminal closed) is found here, marked
interrupted, and its work kept under .sentinel/recovery/<run-id>/. A run record
Sentinel cannot prove it wrote (signed with the key in your state directory) is
reported on stderr as "unverified record, ignored" and never acted on.

At a terminal the table fits its width (the task is cut with …); piped, each
run is one tab-separated line with every field whole; --json has everything:
each run's record with its state in the words above ("state"), how many of
its requests wait for you ("pending", "waits_for_you") and, once it ended,
the sentence that says what landed where ("landed").`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			wd, _ := os.Getwd()
			p, err := runner.FindProject(c.Context(), wd)
			if err != nil {
				return err
			}
			runner.SweepStale(c.Context(), p)
			metas, err := verifiedRuns(p)
			if err != nil {
				return err
			}
			runner.NoteReviews(p, metas)
			if asJSON {
				b, err := runsJSON(metas, pendingOf(c.Context(), p.Root))
				if err != nil {
					return err
				}
				_, err = os.Stdout.Write(b)
				return err
			}
			if len(metas) == 0 {
				fmt.Println("no runs yet — try: sentinel run --coder demo \"add a Shout function\"")
				return nil
			}
			pending := pendingOf(c.Context(), p.Root)
			if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
				_, err = fmt.Fprint(os.Stdout, runsFit(metas, pending, w))
				return err
			}
			_, err = fmt.Fprint(os.Stdout, runsTSV(metas, pending))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the runs as JSON")
	return cmd
}

// statusText is the run's state word (runner.StateOf, as every view tells
// it, "waiting for you" while a request of it waits: queue.Live) and the
// branch it landed on.
func statusText(m *runner.Meta, pending map[string]int) string {
	s := runState(m, pending)
	if m.Landing != nil && m.Landing.Branch != "" {
		s += " → " + m.Landing.Branch
	}
	return s
}

func duration(m *runner.Meta) string {
	if m.Ended.IsZero() {
		return time.Since(m.Started).Round(time.Second).String() + "…"
	}
	return m.Ended.Sub(m.Started).Round(100 * time.Millisecond).String()
}

func decisionsText(d *runner.Decisions) string {
	if d == nil {
		return "-"
	}
	keys := make([]string, 0, len(d.By))
	for k := range d.By {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, d.By[k]))
	}
	s := fmt.Sprintf("%d allowed, %d denied", d.Allowed, d.Denied)
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	kinds := make([]string, 0, len(d.ByKind))
	for k := range d.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var kp []string
	for _, k := range kinds {
		kp = append(kp, fmt.Sprintf("%s %d", k, d.ByKind[k]))
	}
	if len(kp) > 0 {
		s += " [" + strings.Join(kp, ", ") + "]"
	}
	return s
}
