package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

type undoFlags struct {
	list, force, dryRun bool
	to                  int
}

func newUndoCmd() *cobra.Command {
	var f undoFlags
	cmd := &cobra.Command{
		Use:   "undo [flags] [RUN]",
		Short: "Put the project back as it was before an in-place run (sentinel exec, a shim)",
		Long: `Before an in-place run (sentinel exec, a launcher shim) acts, Sentinel records
the project — tracked, untracked and ignored files, up to a size bound — in
its state directory, and again when the run ends. 'sentinel undo' puts back
what the run changed, byte for byte: contents, modes, symlinks; files it
deleted come back, files and directories it made go.

An in-place run also checkpoints the project just before each tool call that
can write; 'sentinel undo RUN --list' lists those points and
'sentinel undo RUN --to N' puts the project back as it was before call N.
The git index goes back with the files (what the coder staged is unstaged)
unless you staged something since; a mere 'git status' does not count.
'sentinel mcp' does the same for each rw path before every call that can
write there (exec, playbook, the file tools): its record is the server's
run id, listed by 'sentinel undo --list' run in that path.

RUN is a run id or an undo's id (see --list); without it, the newest in-place
run of this project. A file you changed, made or deleted after the run ended
is kept as you left it, one line each ("kept: PATH — ..."), and the rest of
the run's changes are put back; the run stays undoable ('sentinel undo
--list' shows it "partly undone", naming what was kept): once you have
resolved those paths (each as the run left it, or as it was before), a
second 'sentinel undo RUN' finishes it, and 'sentinel undo --force RUN'
overwrites what was kept. An undo records
the project first, so it can be undone in turn ('sentinel undo UNDO-ID').

Hard links: paths of the project that were one file before the run are one
file again after undo, once each holds its content from before (a path you
changed since stays its own file). A path that was one file with a file
outside the project is linked to it again when that file is still there
with its content from before the run; otherwise the path comes back as its
own copy, and undo says so ("copy: PATH — ...").

Exit status: 0 when everything was put back, 1 when something was kept or
could not be put back, 2 for a usage error.`,
		Example: `  sentinel undo --list
  sentinel undo --dry-run
  sentinel undo
  sentinel undo 20261205-101500-a1b2c3
  sentinel undo --force 20261205-101500-a1b2c3
  sentinel undo 20261205-101500-a1b2c3 --list
  sentinel undo 20261205-101500-a1b2c3 --to 3`,
		Args: wantArgs(0, 1, "", "sentinel undo 20261205-101500-a1b2c3"),
		RunE: func(c *cobra.Command, args []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			p, err := runner.FindInPlaceProject(c.Context(), wd)
			if err != nil {
				return err
			}
			if f.to < 0 {
				return usageError{errors.New("--to takes a tool call's number from 'sentinel undo RUN --list' (1 or more)")}
			}
			if f.list {
				if len(args) > 0 {
					return listPoints(p, args[0])
				}
				return listCheckpoints(p)
			}
			id := ""
			if len(args) == 1 {
				id = args[0]
			}
			return undo(c, p, id, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.list, "list", false, "list this project's checkpoints, newest first")
	fl.BoolVar(&f.force, "force", false, "overwrite what you changed since the run ended")
	fl.BoolVarP(&f.dryRun, "dry-run", "n", false, "print what would change; change nothing")
	fl.IntVar(&f.to, "to", 0, "put the project back as it was just before the run's tool call `N` (see: sentinel undo RUN --list)")
	return cmd
}

func undo(c *cobra.Command, p *runner.Project, id string, f undoFlags) error {
	rep, err := runner.Undo(c.Context(), p, id, runner.UndoOptions{Force: f.force, DryRun: f.dryRun, To: f.to})
	if rep == nil {
		return err
	}
	out := c.OutOrStdout()
	verb := "undid"
	if f.dryRun {
		verb = "would undo"
	}
	switch {
	case len(rep.Steps) == 0 && len(rep.Cannot) == 0 && len(rep.Changed) == 0:
		fmt.Fprintf(out, "nothing to undo: %s's changes are not in the project any more\n", rep.Undone.ID)
	case len(rep.Steps) > 0:
		fmt.Fprintf(out, "%s %s (%s):\n", verb, rep.Undone.ID, textsafe.Line(rep.Undone.Task))
	case len(rep.Changed) > 0:
		fmt.Fprintf(out, "%s %s (%s): nothing else to put back\n", verb, rep.Undone.ID, textsafe.Line(rep.Undone.Task))
	}
	for _, s := range rep.Steps {
		fmt.Fprintln(out, "  "+textsafe.Line(s))
	}
	for _, s := range rep.Forced {
		fmt.Fprintln(out, "  overwritten (--force): "+textsafe.Line(s))
	}
	force := "sentinel undo --force " + rep.Undone.ID
	if rep.To > 0 {
		force += fmt.Sprintf(" --to %d", rep.To)
	}
	for _, c := range rep.Changed {
		fmt.Fprintf(out, "  kept: %s — %s; '%s' to overwrite\n", textsafe.Line(c.Path), c.Why, force)
	}
	for _, s := range rep.Kept {
		fmt.Fprintln(out, "  kept: "+textsafe.Line(s))
	}
	for _, s := range rep.Copies {
		fmt.Fprintln(out, "  copy: "+textsafe.Line(s))
	}
	for _, s := range rep.Cannot {
		fmt.Fprintln(out, "  not put back: "+textsafe.Line(s))
	}
	for _, s := range rep.Owners {
		fmt.Fprintln(out, "  owner not put back: "+textsafe.Line(s))
	}
	if rep.ID != "" {
		fmt.Fprintf(out, "the project before this undo is checkpoint %s ('sentinel undo %s' puts it back)\n", rep.ID, rep.ID)
	}
	if err != nil {
		return err
	}
	if len(rep.Changed) > 0 && !f.dryRun {
		return exitError{code: 1, err: fmt.Errorf("not everything was undone: %d path(s) you changed after the run ended were kept (listed above)", len(rep.Changed))}
	}
	if len(rep.Cannot) > 0 && !f.dryRun {
		return exitError{code: 1, err: fmt.Errorf("%d path(s) the checkpoint does not cover were not put back (listed above)", len(rep.Cannot))}
	}
	return nil
}

func listCheckpoints(p *runner.Project) error {
	recs, err := runner.CheckpointRecords(p)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		fmt.Println("no checkpoints for " + p.Root + " (an in-place run takes one: sentinel exec)")
		return nil
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tSTARTED\tSTATE\tNOT COVERED\tWHAT")
	for _, r := range recs {
		state := "can be undone"
		switch {
		case r.UndoneBy != "":
			state = "undone by " + r.UndoneBy
		case len(r.Kept) > 0:
			state = partlyUndone(r.Kept)
		case !r.HasAfter:
			state = "no end record (--force)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", r.ID, r.Kind, r.Started.Local().Format(time.DateTime), state, r.NotCovered, textsafe.Line(r.Task))
	}
	return tw.Flush()
}

// partlyUndone is the state of a record whose last undo kept the paths
// kept (the person changed them after the run ended): the first few named.
func partlyUndone(kept []string) string {
	const named = 3
	names := kept
	more := ""
	if len(names) > named {
		names, more = names[:named], fmt.Sprintf(", … %d more", len(kept)-named)
	}
	return fmt.Sprintf("partly undone (%d kept: %s%s)", len(kept), textsafe.Line(strings.Join(names, ", ")), more)
}
