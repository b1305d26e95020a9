package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/tui"
)

// reviewInteractively shows the review screen at a terminal and carries
// out the person's verdict.
func reviewInteractively(c *cobra.Command, f *runner.Finished, mode runner.ApplyMode, o runner.ApproveOptions) error {
	if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
		return usageError{errors.New("no terminal for the review screen: pass --approve or --reject")}
	}
	answer := make(chan runner.ReviewAnswer, 1)
	req, err := f.ReviewRequest(answer) // the landing stage's, as a live run's review
	if err != nil {
		return err
	}
	// A signal (SIGTERM, SIGHUP, SIGINT from outside the terminal) ends the
	// screen at once with nothing decided, and the review exits 130; so
	// does Ctrl-C pressed on the screen.
	ctx, signalled := reviewSignals(c.Context())
	if err := tui.RunReview(ctx, req, tui.Options{}); err != nil {
		if signalled() || errors.Is(err, tui.ErrInterrupted) {
			return exitError{code: 130, err: fmt.Errorf("stopped: nothing decided, nothing landed; run %s is unchanged", f.Meta.ID)}
		}
		if errors.Is(err, tui.ErrNoVerdict) {
			fmt.Println("no decision: the run is unchanged")
			return nil
		}
		return err
	}
	a := <-answer
	if !a.Approve {
		if err := f.Reject(a.Reason); err != nil {
			return err
		}
		fmt.Printf("rejected run %s; its work stays in recovery\n", f.Meta.ID)
		return nil
	}
	if a.Patch == nil {
		return approveWhole(c.Context(), f, mode, o)
	}
	l, err := f.Approve(c.Context(), a.Patch, mode, o)
	if err != nil {
		return err
	}
	fmt.Println(landedLine(l))
	return nil
}
