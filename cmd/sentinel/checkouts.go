package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
)

// `sentinel checkouts`: the shared read-only checkouts under overlay
// workspaces (runner/checkouts.go), listed and cleared.
func newCheckoutsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "checkouts",
		Short: "List the shared checkouts under overlay workspaces (clear: remove them)",
		Long: fmt.Sprintf(`Overlay workspaces share one read-only checkout per snapshot in the user's
state dir. Each is kept while a run uses it; after a run ends, those unused for
%s and those beyond the %d most recently used are removed.
'sentinel checkouts clear' removes every one no live run uses.`, runner.CheckoutMaxAge, runner.CheckoutKeep),
		Args: noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			list, err := runner.ListCheckouts()
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			w := c.OutOrStdout()
			if len(list) == 0 {
				fmt.Fprintln(w, "no shared checkouts")
				return nil
			}
			for _, ck := range list {
				use := "unused"
				if ck.InUse > 0 {
					use = fmt.Sprintf("in use by %d run(s)", ck.InUse)
				}
				fmt.Fprintf(w, "%s  last used %s  %s  %s\n  %s\n", textsafe.Line(shortTree(ck.Tree)), ck.LastUse.Format(time.DateTime),
					use, textsafe.Line(ck.Project), textsafe.Line(ck.Dir))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	clear := &cobra.Command{
		Use:   "clear",
		Short: "Remove every shared checkout no live run uses",
		Args:  noArgs,
		RunE: func(c *cobra.Command, args []string) error {
			removed, err := runner.ClearCheckouts()
			for _, d := range removed {
				fmt.Fprintln(c.OutOrStdout(), "removed", textsafe.Line(d))
			}
			if err != nil {
				return fmt.Errorf("clear shared checkouts: %w", err)
			}
			if len(removed) == 0 {
				fmt.Fprintln(c.OutOrStdout(), "nothing to remove")
			}
			return nil
		},
	}
	cmd.AddCommand(clear)
	return cmd
}

func shortTree(t string) string {
	if len(t) > 12 {
		return t[:12]
	}
	return t
}

// workspaceCheck is doctor's line on which workspace sandboxed runs get.
func workspaceCheck() sandbox.Check {
	ck := sandbox.Check{Name: "workspace"}
	if err := runner.OverlayStatus(context.Background()); err != nil {
		ck.Detail = "clone per run (no overlay: " + err.Error() + ")"
		ck.Fix = "runs work, each with a full clone; an overlay needs Linux with unprivileged overlayfs (user namespaces, user xattrs)"
		return ck
	}
	n := 0
	if list, err := runner.ListCheckouts(); err == nil {
		n = len(list)
	}
	ck.OK = true
	ck.Detail = fmt.Sprintf("overlay over a shared read-only checkout (%d kept; `sentinel checkouts` lists and clears them)", n)
	return ck
}
