package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
)

// reviewInteractively shows the review screen at a terminal.
func reviewInteractively(c *cobra.Command, f *runner.Finished, mode runner.ApplyMode, sb sandbox.Mode) error {
	if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
		return usageError{errors.New("no terminal for the review screen: pass --approve or --reject")}
	}
	files, err := f.Files()
	if err != nil {
		return err
	}
	for _, pf := range files {
		flag := ""
		if pf.Flagged {
			flag = "  ⚠ " + pf.FlagReason
		}
		fmt.Printf("%-9s %s  +%d -%d%s\n", pf.Status, pf.Path, pf.Adds, pf.Dels, flag)
	}
	return usageError{errors.New("the review screen is not available in this build: pass --approve or --reject")}
}
