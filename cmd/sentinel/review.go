package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
)

func init() {
	var approve, reject bool
	var reason, apply, sbMode string
	cmd := &cobra.Command{
		Use:   "review RUN",
		Short: "Review a finished run's change and land it or reject it",
		Long: `Reopen the review of a run that ended without landing — failed, interrupted,
rejected, awaiting review, or kept with --apply none. RUN is a run id, a unique
prefix of one, or 'last'.

With --approve the whole change lands (on a new branch sentinel/<run-id> by
default, or as --apply says); with --reject it is marked rejected and stays in
.sentinel/recovery/<run-id>/. Without either, at a terminal, the review screen
opens: accept or reject files and hunks, then approve or reject.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if approve && reject {
				return usageError{errors.New("give --approve or --reject, not both")}
			}
			mode, err := runner.ParseApplyMode(apply)
			if err != nil {
				return usageError{err}
			}
			wd, _ := os.Getwd()
			p, err := runner.FindProject(c.Context(), wd)
			if err != nil {
				return err
			}
			id, err := resolveRun(p, args[0])
			if err != nil {
				return err
			}
			f, err := runner.OpenFinished(c.Context(), p, id)
			if err != nil {
				return err
			}
			defer f.Close()
			switch {
			case reject:
				if err := f.Reject(reason); err != nil {
					return err
				}
				fmt.Printf("rejected run %s; its work stays in %s\n", id, p.RecoveryDir(id))
				return nil
			case approve:
				l, err := f.Approve(c.Context(), nil, mode, sandbox.Mode(sbMode))
				if err != nil {
					return err
				}
				fmt.Println(landedLine(l))
				return nil
			}
			return reviewInteractively(c, f, mode, sandbox.Mode(sbMode))
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&approve, "approve", false, "land the whole change without the review screen")
	fl.BoolVar(&reject, "reject", false, "reject the change without the review screen (the work stays in recovery)")
	fl.StringVar(&reason, "reason", "", "with --reject: why, for the journal and the report")
	fl.StringVar(&apply, "apply", "branch", "where an approved change goes: branch, worktree or none")
	fl.StringVar(&sbMode, "sandbox", "auto", "sandbox for re-verifying a partly accepted change: auto, ns, bwrap or off")
	root.AddCommand(cmd)
}

func landedLine(l runner.Landing) string {
	switch {
	case l.Branch != "":
		return fmt.Sprintf("landed on branch %s (%d file(s)); your checkout is unchanged — see: git log --stat %s", l.Branch, len(l.Files), l.Branch)
	case l.Mode == runner.ApplyWorktree:
		return fmt.Sprintf("applied %d file(s) to your working tree", len(l.Files))
	}
	return "kept the patch; nothing applied (--apply none)"
}
