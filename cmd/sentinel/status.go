package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// statusItem is one run in sentinel status --json.
type statusItem struct {
	Project string    `json:"project"`
	Run     string    `json:"run"`
	Coder   string    `json:"coder"`
	State   string    `json:"state"`
	Started time.Time `json:"started"`
	AgeSec  int64     `json:"age_sec"`
	Pending int       `json:"pending"`
	Flagged []string  `json:"flagged,omitempty"` // lines to read (an mcp session's DANGEROUS lines)
}

func newStatusCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status",
		Short: "Every run on this machine, across projects: its state and what waits for you",
		Long: `sentinel status lists every run the user service (sentinel service) knows on
this machine, in every project: its coder, its state (running, waiting for
you, reviewing, or how it ended in the words sentinel runs uses: landed, no
changes, awaiting-review, rejected, interrupted, failed, stuck, done, with
"(recovery)" when its work was kept; gone), its age and how many
of its requests wait for you (sentinel queue, sentinel console). A
'sentinel mcp' server is a run too (coder mcp), live or ended, with the
DANGEROUS lines it flagged (files that run code later its commands left).`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			runs, err := queue.Runs(c.Context())
			if err != nil {
				return err
			}
			now := time.Now()
			if asJSON {
				items := make([]statusItem, 0, len(runs))
				for _, r := range runs {
					items = append(items, statusItem{Project: r.Project, Run: r.Run, Coder: r.Coder, State: r.State,
						Started: r.Started, AgeSec: int64(now.Sub(r.Started).Seconds()), Pending: r.Pending, Flagged: r.Flagged})
				}
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(items)
			}
			writeStatusTable(c.OutOrStdout(), runs, now)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the runs as a JSON array")
	return c
}

func writeStatusTable(w io.Writer, runs []queue.RunStatus, now time.Time) {
	if len(runs) == 0 {
		fmt.Fprintln(w, "no runs on this machine have reported to the service")
		return
	}
	fmt.Fprintf(w, "%-20s %-22s %-10s %-26s %-5s %s\n", "PROJECT", "RUN", "CODER", "STATE", "AGE", "PENDING")
	for _, r := range runs {
		fmt.Fprintf(w, "%-20s %-22s %-10s %-26s %-5s %d\n", textsafe.Line(shortProject(r.Project)), textsafe.Line(r.Run),
			textsafe.Line(r.Coder), textsafe.Line(r.State), ago(now.Sub(r.Started)), r.Pending)
	}
	writeAwaiting(w, runs)
	writeFlagged(w, runs)
}
