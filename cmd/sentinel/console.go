package main

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/tui"
)

func newConsoleCmd() *cobra.Command {
	var theme string
	c := &cobra.Command{
		Use:   "console",
		Short: "Answer every run's approval cards from one place, with every run's state and lanes",
		Long: `sentinel console shows every run on this machine with its state (from the
user service, sentinel service), the lanes of the run you pick (< and >),
and one queue of the cards waiting for you across runs, oldest first. The
card, its keys and remembering work as at a run's own terminal; the run that
asked applies your answer. The terminal bell rings when a card arrives.
q leaves the console; the runs and their requests go on.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
				return usageError{errors.New("sentinel console needs a terminal (for scripts: sentinel queue --json and sentinel status --json)")}
			}
			if theme != "" {
				if err := checkTheme(theme); err != nil {
					return usageError{err}
				}
			}
			ctx, cancel := context.WithTimeout(c.Context(), 5*time.Second)
			_, err := queue.Pending(ctx)
			cancel()
			if err != nil {
				return err
			}
			return tui.RunConsole(c.Context(), tui.Options{Theme: theme, Signal: tuiSignal(), ReduceMotion: tuiReduceMotion()})
		},
	}
	c.Flags().StringVar(&theme, "theme", "", "TUI theme: auto, dark, light, high-contrast, or a user theme's name")
	return c
}
