package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
)

func newReviewCmd() *cobra.Command {
	var approve, reject, force bool
	var reason, apply, sbMode string
	var verify []string
	cmd := &cobra.Command{
		Use:   "review RUN",
		Short: "Review a finished run's change and land it or reject it",
		Long: `Reopen the review of a run that ended without landing — failed, interrupted,
rejected, awaiting review, or kept with --apply none. RUN is a run id, a unique
prefix of one, or 'last'.

A run that never passed verification (it failed, was interrupted or got stuck)
is verified on a clean copy, sandboxed, before anything lands: with the checks
the run ran, else --verify, else the checks the run planned, else the project's
configured or detected ones. A signal stops it with nothing landed (exit 130). If
that fails, or nothing can verify it, nothing lands. --force lands it anyway,
unverified, says what was not checked, and records that in the journal and
the final report.

With --approve the whole change lands where the run was to land it (its
--apply; a new branch sentinel/<run-id> when that was none), or as --apply says; with --reject it is marked rejected and stays in
.sentinel/recovery/<run-id>/. Without either, at a terminal, the review screen
opens: accept or reject files and hunks, then approve or reject.`,
		Args: wantArgs(1, 1, runArg, "sentinel review last"),
		RunE: func(c *cobra.Command, args []string) error {
			if approve && reject {
				return usageError{errors.New("give --approve or --reject, not both")}
			}
			if force && reject {
				return usageError{errors.New("--force goes with --approve (or the review screen), not --reject")}
			}
			given := apply
			if given == "" { // not given: the run's own, below
				given = string(runner.ApplyBranch)
			}
			mode, err := runner.ParseApplyMode(given)
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
			defer reportReviewed(c.Context(), p, id) // the state the review left it in
			if !c.Flags().Changed("apply") && f.Meta != nil && f.Meta.Apply != "" && f.Meta.Apply != runner.ApplyNone {
				mode = f.Meta.Apply // where the run itself was to land it
			}
			f.OnEvent = reviewProgress(os.Stderr)
			cfg, err := config.Load(p.Root)
			if err != nil {
				return err
			}
			opts := runner.ApproveOptions{Sandbox: sandbox.Mode(sbMode), Force: force, Checks: checksFor(verify, cfg, p.Root), ChecksGiven: len(verify) > 0}
			switch {
			case reject:
				if err := f.Reject(reason); err != nil {
					return err
				}
				fmt.Printf("rejected run %s; its work stays in %s\n", id, p.RecoveryDir(id))
				return nil
			case approve:
				return approveWhole(c.Context(), f, mode, opts)
			}
			return reviewInteractively(c, f, mode, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&approve, "approve", false, "land the whole change without the review screen")
	fl.BoolVar(&reject, "reject", false, "reject the change without the review screen (the work stays in recovery)")
	fl.StringVar(&reason, "reason", "", "with --reject: why, for the journal and the report")
	fl.StringVar(&apply, "apply", "", "where an approved change goes: branch, worktree or none (default: the run's own --apply, branch when that was none)")
	fl.StringVar(&sbMode, "sandbox", "auto", "sandbox for verifying the change before it lands: auto, ns, bwrap or off")
	fl.StringArrayVar(&verify, "verify", nil, "a check command to verify with when the run recorded none (repeatable; default: the project's configured or detected checks)")
	fl.BoolVar(&force, "force", false, "land a run that never passed verification WITHOUT verifying it (says what was not checked)")
	return cmd
}

// approveWhole lands the whole change, saying plainly when --force skipped
// a verification the run never passed.
func approveWhole(ctx context.Context, f *runner.Finished, mode runner.ApplyMode, o runner.ApproveOptions) error {
	unchecked := f.NotChecked(o)
	// A signal stops the verification and any landing not yet in effect.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	l, err := f.Approve(ctx, nil, mode, o)
	if err != nil && ctx.Err() != nil {
		return exitError{code: 130, err: fmt.Errorf("stopped: nothing landed; the work stays in recovery — sentinel review %s", f.Meta.ID)}
	}
	if err != nil {
		return err
	}
	if o.Force && unchecked != "" {
		fmt.Println("landed WITHOUT verification (--force): " + unchecked)
	}
	fmt.Println(landedLine(l))
	return nil
}

func landedLine(l runner.Landing) string { return runner.LandingLine(l) }
