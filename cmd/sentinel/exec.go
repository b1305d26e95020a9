package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// defaultApprovalTimeout is how long a request may wait for an answer.
const defaultApprovalTimeout = 10 * time.Minute

// hookedInPlace says an agent runs in place with its own approval hooks
// (or plugin): an in-place adapter and a hook dialect.
func hookedInPlace(a *agents.Agent) bool { return a.InPlace != nil && a.Dialect != "" }

// execFlags are `sentinel exec`'s flags.
type execFlags struct {
	plain      bool
	sandbox    string
	allowHosts []string
	timeout    time.Duration
	theme      string
}

func newExecCmd() *cobra.Command {
	var f execFlags
	cmd := &cobra.Command{
		Use:   "exec [flags] -- PROGRAM [ARG...]",
		Short: "Run an agent in place, in this project itself, inside the sandbox",
		Long: `Run PROGRAM in the project you are in (the git top level, else this
directory) itself — not a copy — inside Sentinel's sandbox, journaled in the
project's .sentinel/runs. The project, the agent's own per-run state, temp
dirs and the places [exec] writable in your user config names are writable;
credentials, the project's secret files (.env, keys…), .git hooks and .git
config are not. Known agents (` + strings.Join(agents.Names(hookedInPlace), ", ") + `) get their
approval hooks as in 'sentinel run': every tool call goes through the
policy, your templates and your card, and fails closed (gemini with
--approval-mode yolo, so that Sentinel's hook is its one gate; opencode
through Sentinel's own plugin, with your and the project's opencode plugins
not loaded). Any other program is sandbox-only, and the run's first line
says so. Before the program starts, the project (ignored files included, up
to a size bound) is checkpointed in your state directory; at the end exec
prints every change against it, and 'sentinel undo' puts it back. There is
no landing step.
One in-place run works on a place at a time: exec (or a shim) in a
folder a live run works on, inside it or holding it, stops at once and
names that run.
Prefer 'sentinel run' for untrusted tasks, for walking away, and to review a
change before it lands.

Exit status: the program's own (0 when it succeeded), 1 when Sentinel
failed, 2 for a usage error, 130 when interrupted.`,
		Example: `  sentinel exec -- claude
  sentinel exec -- codex "add a test for the parser"
  sentinel exec -- gemini -p "explain the build"
  sentinel exec -- opencode
  sentinel exec -- sh -c 'make test'
  sentinel exec --plain -- claude -p "fix the failing test"`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError{errors.New("no program: sentinel exec [flags] -- PROGRAM [ARG...]")}
			}
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			return startExec(c.Context(), f, args, wd)
		},
	}
	cmd.Flags().SetInterspersed(false) // the program's own flags are its own
	fl := cmd.Flags()
	fl.BoolVar(&f.plain, "plain", false, "no TUI: one line per event, tagged by lane")
	fl.StringVar(&f.sandbox, "sandbox", "auto", "sandbox backend: auto, ns, bwrap, or off (no sandbox: only knowingly)")
	fl.StringArrayVar(&f.allowHosts, "allow-host", nil, "let the program reach `HOST[:PORT]` without asking (repeatable)")
	fl.DurationVar(&f.timeout, "approval-timeout", defaultApprovalTimeout, "deny a request nobody answers within this long")
	fl.StringVar(&f.theme, "theme", "", "TUI theme: auto, dark, light, high-contrast, or a user theme's name")
	return cmd
}

// startExec runs argv in place in the project at dir and turns the outcome
// into an exit status.
func startExec(ctx context.Context, f execFlags, argv []string, dir string) error {
	mode, err := parseSandboxMode(f.sandbox)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	project, cfg, notices, err := openLaunch(ctx, dir, findExecProject)
	if err != nil {
		return err
	}
	if f.theme, err = pickTheme(f.theme, cfg.Theme); err != nil {
		return err
	}
	writable, err := execWritable(cfg.Exec.Writable)
	if err != nil {
		return err
	}
	interactive, useTUI, person, cols, rows := openTerminal(f.plain)
	// A stop before the run is shown (the first record of a big place
	// takes a while) ends the start: the record is abandoned, the coder
	// never starts (runner.ErrStoppedBeforeCoder).
	stopped, stopWatching := startSignals()
	defer stopWatching()
	r, err := runner.Start(ctx, runner.Options{
		Project: project, Task: "exec: " + strings.Join(argv, " "), Notices: notices, InPlace: true,
		Coder: runner.CoderOptions{Command: argv, Cols: cols, Rows: rows},
		Sandbox: runner.SandboxOptions{Mode: mode, AllowHosts: append(cfg.Sandbox.AllowHosts, f.allowHosts...),
			Hidden: cfg.Sandbox.Hidden, Readable: cfg.Sandbox.Readable, DeniedExecutables: cfg.Service.DeniedExecutables, PidsMax: cfg.Sandbox.PidsMax,
			Writable: writable, SSHAgent: cfg.Sandbox.SSHAgent},
		Approval:     runner.ApprovalOptions{Person: person, Timeout: f.timeout, Queue: true},
		Checkpoint:   checkpoint.Limits{MaxFileBytes: int64(cfg.Exec.CheckpointMaxFileMiB) << 20, MaxTotalBytes: int64(cfg.Exec.CheckpointMaxTotalMiB) << 20},
		StopStarting: stopped,
	})
	if err != nil {
		if errors.Is(err, runner.ErrStoppedBeforeCoder) {
			return exitError{code: 130, err: err}
		}
		if errors.As(err, new(runner.CoderNameError)) {
			return usageError{err}
		}
		return err
	}
	status := reportStatus(r, project.Root)
	res, err := showRun(ctx, r, person, useTUI, interactive, f.theme)
	if err != nil {
		status.final(r, r.Wait())
		return err
	}
	status.final(r, res)
	fmt.Fprintln(os.Stderr, textsafe.Block(execSummary(r.ID(), res)))
	switch {
	case res.Status == runner.StatusDone:
		return nil
	case res.Status == runner.StatusInterrupted:
		return exitError{code: 130}
	case res.Code > 0 && res.Code < 126:
		return exitError{code: res.Code} // the program's own failure, told in the summary
	}
	return exitError{code: 1}
}

// findExecProject is the project exec works in from dir, refused when it
// is the home directory, / or a folder holding Sentinel's own state.
func findExecProject(ctx context.Context, dir string) (*runner.Project, error) {
	p, err := runner.FindInPlaceProject(ctx, dir)
	if err != nil {
		return nil, err
	}
	return p, runner.CheckInPlaceRoot(p.Root)
}

// execWritable is [exec] writable made absolute: each entry must exist,
// since the sandbox cannot bind a place that is not there.
func execWritable(list []string) ([]string, error) {
	home, _ := os.UserHomeDir()
	where := "your user config"
	if files := config.Files(""); len(files) > 0 {
		where = files[0]
	}
	out, err := config.ExpandWritable(list, home)
	if err != nil {
		return nil, fmt.Errorf("%v (fix it in %s)", err, where)
	}
	for _, p := range out {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("[exec] writable entry %s does not exist; create it or remove it from %s", p, where)
		}
	}
	return out, nil
}

// execSummary is what an exec run leaves on the terminal: how it ended and
// what it changed in the project.
func execSummary(id string, res runner.Result) string {
	end := string(res.Status)
	if res.Err != nil && res.Status != runner.StatusDone {
		end += ": " + res.Err.Error()
	}
	msg := fmt.Sprintf("sentinel: exec %s %s", id, end)
	if res.InPlace == nil {
		msg += "; what changed could not be told (see: sentinel show " + id + ")"
	} else {
		msg += "; " + res.InPlace.Report(" in place") + res.InPlace.FlagsText() + res.InPlace.GitDirText()
	}
	return msg
}
