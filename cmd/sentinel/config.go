package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/runner"
)

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the effective configuration; approve a project's .sentinel/config.toml",
		Long: `A project's .sentinel/config.toml may have been written by a coder, so the
settings in it that widen what a run may do — [sandbox] allow_hosts and
readable, [verify] commands, and [supervisor] (a program or server, a key;
all but its timeout) — are used only once you approve that exact file.
Approval records the file's SHA-256 in your state directory
($XDG_STATE_HOME/sentinel, outside every project); changing one byte of the
file withdraws it. Until then runs go on without those settings and say so.
Settings that only narrow (coder, theme, [sandbox] hidden, the timeouts) are
always used.

In a place that is not a git repository (an unpacked archive), nothing tells
your own .sentinel/ from one the place shipped: its policy.toml and
templates.toml are used only once trusted too, and 'trust' approves them as
they are (what Sentinel remembers there itself stays trusted).`,
	}
	var project string
	trust := &cobra.Command{
		Use:   "trust",
		Short: "Show the project config's widening settings and approve the file as it is now",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			root, err := configRoot(c.Context(), project)
			if err != nil {
				return err
			}
			return configTrust(c.OutOrStdout(), root)
		},
	}
	untrust := &cobra.Command{
		Use:   "untrust",
		Short: "Withdraw the approval of the project config",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			root, err := configRoot(c.Context(), project)
			if err != nil {
				return err
			}
			removed, err := config.Untrust(root)
			if err != nil {
				return err
			}
			for _, name := range []string{"policy.toml", "templates.toml"} {
				if gone, err := config.UntrustFile(root, name); err != nil {
					return err
				} else if gone {
					fmt.Fprintf(c.OutOrStdout(), "%s is no longer trusted: runs in this place go without it\n", config.StateFilePath(root, name))
				}
			}
			if removed {
				fmt.Fprintf(c.OutOrStdout(), "%s is no longer trusted: runs use only its narrowing settings\n", config.ProjectPath(root))
			} else {
				fmt.Fprintf(c.OutOrStdout(), "%s was not trusted: nothing to withdraw\n", config.ProjectPath(root))
			}
			return nil
		},
	}
	status := &cobra.Command{
		Use:   "status",
		Short: "Whether the project config is trusted and what it widens",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			root, err := configRoot(c.Context(), project)
			if err != nil {
				return err
			}
			return configStatus(c.OutOrStdout(), root)
		},
	}
	show := configShowCommand(&project)
	for _, sub := range []*cobra.Command{show, trust, untrust, status} {
		sub.Flags().StringVar(&project, "project", "", "the project `DIR` (default: the git repository you are in, else the current directory)")
		cmd.AddCommand(sub)
	}
	// Plain `sentinel config` shows the effective configuration.
	cmd.Args = noArgs
	cmd.RunE = show.RunE
	cmd.Flags().AddFlagSet(show.Flags())
	return cmd
}

// configRoot is the project whose config the config commands and `sandbox
// run` mean: the git repository dir is in (what `sentinel run` uses), else
// dir itself.
func configRoot(ctx context.Context, dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", usageError{fmt.Errorf("--project %s: not a directory; give the project's directory", dir)}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if p, err := runner.FindProject(ctx, abs); err == nil {
		return p.Root, nil
	} else if errors.Is(err, runner.ErrNoCommits) {
		// A repository with no commit yet: its top is still the project.
		for d := abs; ; d = filepath.Dir(d) {
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				return d, nil
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return abs, nil
}

// configTrust shows what the file widens, then records its hash. The bytes
// shown are the bytes approved: the file is read once.
func configTrust(out io.Writer, root string) error {
	pf, err := config.ReadProject(root)
	if err != nil {
		return err
	}
	others, err := trustPlaceFiles(out, root)
	if err != nil {
		return err
	}
	if !pf.Present && others > 0 {
		return nil
	}
	if !pf.Present {
		return fmt.Errorf("no project config at %s: nothing to trust", pf.Path)
	}
	if err := config.Trust(pf); err != nil {
		return err
	}
	fmt.Fprintf(out, "trusted %s (sha256 %s)\n", pf.Path, pf.SHA256)
	if len(pf.Widening) == 0 {
		fmt.Fprintln(out, "it widens nothing: runs used all of it already")
		return nil
	}
	fmt.Fprintln(out, "runs now use these settings from it (changing the file withdraws the approval):")
	for _, s := range pf.Widening {
		fmt.Fprintln(out, "  "+s) // values are strconv.Quote'd: no control or invisible characters
	}
	return nil
}

func configStatus(out io.Writer, root string) error {
	pf, err := config.ReadProject(root)
	if err != nil {
		return err
	}
	if !pf.Present {
		fmt.Fprintf(out, "%s: none\n", pf.Path)
		return nil
	}
	approved, _ := config.TrustedHash(root)
	switch {
	case len(pf.Widening) == 0:
		fmt.Fprintf(out, "%s: widens nothing, used in full (no approval needed)\n", pf.Path)
	case pf.Trusted:
		fmt.Fprintf(out, "%s: trusted (sha256 %s); runs use these settings from it:\n", pf.Path, pf.SHA256)
	case approved != "":
		fmt.Fprintf(out, "%s: changed since you trusted it (sha256 now %s, approved %s); runs ignore these settings from it:\n", pf.Path, pf.SHA256, approved)
	default:
		fmt.Fprintf(out, "%s: not trusted (sha256 %s); runs ignore these settings from it:\n", pf.Path, pf.SHA256)
	}
	for _, s := range pf.Widening {
		fmt.Fprintln(out, "  "+s) // values are strconv.Quote'd: no control or invisible characters
	}
	if len(pf.Widening) > 0 && !pf.Trusted {
		fmt.Fprintf(out, "check the file, then: sentinel config trust --project %q\n", root)
	}
	return nil
}
