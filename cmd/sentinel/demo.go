package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/runner"
)

const demoTask = "Add a Shout function to the greeter, with a test."

func newDemoCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "demo [DIR]",
		Short: "Try Sentinel with the built-in demo coder: no account, key or setup",
		Long: `Create a small sample project (in a new temporary directory, or in DIR when
it is empty or missing; an existing git repository in DIR is used as is),
then supervise the built-in demo coder on it. The demo coder asks for
everything a real agent would: safe commands, one that needs your approval
(asked twice: remember it and the second needs no card), a dangerous one,
file edits, a CI workflow (a file that runs code later) and a new network
host; it receives a steering message and finishes. Its work lands on a new branch you can look at.`,
		Args: wantArgs(0, 1, "", "sentinel demo /tmp/sentinel-demo"),
		RunE: func(c *cobra.Command, args []string) error {
			dir, err := demoDir(c, args, f.verify)
			if err != nil {
				return err
			}
			f.coder = "demo"
			err = startRun(c.Context(), f, demoTask, dir)
			fmt.Fprintf(os.Stderr, "\nThe project is in %s — cd there, then: git branch --list 'sentinel/*'; sentinel runs\n", dir)
			return err
		},
	}
	f.register(cmd, false)
	return cmd
}

// demoDir is the demo's project: a new sample (made in a new temporary
// directory, or in the one args name), or the git repository args name.
// verify is --verify: the checks the sample's Go build cache seed is
// started for (warmDemoSeed).
func demoDir(c *cobra.Command, args, verify []string) (string, error) {
	if len(args) == 0 {
		dir, err := os.MkdirTemp("", "sentinel-demo-")
		if err != nil {
			return "", err
		}
		return dir, makeSample(c.Context(), dir, verify)
	}
	dir, err := filepath.Abs(args[0])
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return dir, makeSample(c.Context(), dir, verify)
}

// A new person's first command is the demo, and its first seconds went to
// making the sample project (git init, a commit, an uncommitted change:
// about 2 s at load 46) with nothing on the screen before the run's own
// start lines (which come once a start takes a second). So the demo says
// at once what it makes, and every demoSayEvery while it still does.

// demoSay prints what the demo does before its run starts; createSample
// makes the sample project. Tests replace both.
var (
	demoSay = func(s string) {
		fmt.Fprintln(os.Stderr, "sentinel: "+s)
		runner.MarkSaid() // the run's start teller speaks a second after this
	}
	createSample = runner.CreateSample
)

// demoSayEvery is how often making the sample is said again.
const demoSayEvery = time.Second

// makeSample makes the sample project in dir, saying so at once and every
// demoSayEvery until it is made; the Go build cache seed its verification
// will want starts as soon as its files are written (warmDemoSeed).
func makeSample(ctx context.Context, dir string, verify []string) error {
	demoSay("demo: making a sample Go project in " + dir)
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- createSample(ctx, dir, func() { warmDemoSeed(verify, dir) }) }()
	tick := time.NewTicker(demoSayEvery)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case now := <-tick.C:
			demoSay(fmt.Sprintf("demo: making a sample Go project (%s)", now.Sub(start).Round(time.Second)))
		}
	}
}
