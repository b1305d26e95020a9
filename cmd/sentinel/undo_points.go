package main

import (
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

// listPoints prints run id's checkpoints before single tool calls.
func listPoints(p *runner.Project, id string) error {
	rec, err := runner.CheckpointPoints(p, id)
	if err != nil {
		return err
	}
	if len(rec.Points) == 0 {
		fmt.Printf("%s has no checkpoints before single tool calls ('sentinel undo %s' puts back the whole run)\n", rec.ID, rec.ID)
		return nil
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "N\tTIME\tBEFORE")
	for _, pt := range rec.Points {
		fmt.Fprintf(tw, "%d\t%s\t%s\n", pt.N, pt.Time.Local().Format(time.TimeOnly), textsafe.Line(pt.Call))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Printf("'sentinel undo %s --to N' puts the project back as it was just before call N\n", rec.ID)
	return nil
}
