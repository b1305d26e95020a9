package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/supervisor"
	"github.com/sentinelhq/sentinel/themes"
	"github.com/sentinelhq/sentinel/tui"
	"github.com/sentinelhq/sentinel/tui/plain"
)

// runFlags are the flags `run` and `demo` share.
type runFlags struct {
	coder         string
	taskFile      string
	scenario      string
	plain         bool
	apply         string
	squash        bool
	sandbox       string
	allowHosts    []string
	timeout       time.Duration
	theme         string
	verify        []string
	headless      bool
	sup           supervisorFlags
	awayAfter     time.Duration
	command       []string // after --, for --coder command
	maxRestarts   int
	preset        string
	adversaryRuns int
	maxFile       string
	maxChange     string
}

// coderUsage is --coder's help: every name runner.CoderNames lists, the
// two that take a program after -- said as such.
func coderUsage() string {
	names := runner.CoderNames()
	for i, n := range names {
		switch n {
		case "acp":
			names[i] = "acp (any ACP agent, given after --)"
		case "command":
			names[i] = "command (any program, given after --)"
		}
	}
	last := len(names) - 1
	return "the coding agent to supervise: " + strings.Join(names[:last], ", ") + ", or " + names[last] + " (default: coder in config, else claude)"
}

func (f *runFlags) register(c *cobra.Command, withCoder bool) {
	fl := c.Flags()
	if withCoder {
		fl.StringVar(&f.coder, "coder", "", coderUsage())
		fl.StringVar(&f.taskFile, "task", "", "read the task from `FILE` (instead of giving it as text)")
		fl.BoolVar(&f.headless, "headless", false, "with --coder claude: run claude -p with stream-json (the walk-away mode) instead of its TUI")
	}
	fl.StringVar(&f.scenario, "scenario", "", "scenario `FILE` (TOML) for the demo coder; default: the built-in one")
	fl.BoolVar(&f.plain, "plain", false, "no TUI: one line per event, tagged by lane")
	fl.StringVar(&f.apply, "apply", "branch", "where the result goes: branch (new branch sentinel/<run-id>), worktree, or none")
	fl.BoolVar(&f.squash, "squash", false, "with --apply branch: land the work as one commit \"sentinel: <task>\" instead of the coder's own commits (and one for what it left uncommitted)")
	fl.StringVar(&f.sandbox, "sandbox", "auto", "sandbox backend: auto, ns, bwrap, or off (no sandbox: only knowingly)")
	fl.StringArrayVar(&f.allowHosts, "allow-host", nil, "let the coder reach `HOST[:PORT]` without asking (repeatable)")
	fl.DurationVar(&f.timeout, "approval-timeout", 10*time.Minute, "deny a request nobody answers within this long")
	fl.StringArrayVar(&f.verify, "verify", nil, "check `CMD` to re-run on a clean copy before landing (repeatable; default: [verify] commands in config, else detected)")
	f.sup.register(fl)
	fl.StringVar(&f.preset, "preset", "deep", "with --supervisor: deep (completion review + adversarial tester) or everyday (runtime supervision only)")
	fl.IntVar(&f.adversaryRuns, "adversary-runs", 1, "with --supervisor and --preset deep: adversarial tester turns after the completion review accepts")
	fl.IntVar(&f.maxRestarts, "max-restarts", runner.DefaultMaxRestarts, "with --supervisor: how often the completion review may return the work to a fresh coder before the run stops with a stuck report (0: never; the first return stops the run)")
	fl.DurationVar(&f.awayAfter, "away-after", 0, "with --supervisor and you at the terminal: the supervisor decides requests you leave unanswered this long (0: it only advises on the card)")
	fl.StringVar(&f.theme, "theme", "", "TUI theme: auto, dark, light, high-contrast, or a user theme's name")
	fl.StringVar(&f.maxFile, "max-file-size", "10MB", "refuse to land a change in which one file's new content is larger than `SIZE` (B, KB, MB, GB)")
	fl.StringVar(&f.maxChange, "max-change-size", "50MB", "refuse to land a change whose files or patch together are larger than `SIZE` (B, KB, MB, GB)")
}

// limits reads --max-file-size and --max-change-size.
func (f *runFlags) limits() (runner.Limits, error) {
	file, err := runner.ParseSize(f.maxFile)
	if err != nil {
		return runner.Limits{}, usageError{fmt.Errorf("--max-file-size: %w", err)}
	}
	change, err := runner.ParseSize(f.maxChange)
	if err != nil {
		return runner.Limits{}, usageError{fmt.Errorf("--max-change-size: %w", err)}
	}
	return runner.Limits{MaxFileBytes: file, MaxTotalBytes: change}, nil
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [flags] [TASK TEXT...]",
		Short: "Supervise a coder on a task in a disposable copy of this repository",
		Long: `Run a coder on TASK in a disposable copy of the git repository you are in
(HEAD plus your uncommitted changes), inside a sandbox, with every action it
takes going through policy, remembered approvals and you. When it finishes,
its work lands on a new branch sentinel/<run-id>; your branch, index and
working tree are not touched.

Exit status: 0 when the run completes and lands, 1 when it fails, 2 for a
usage error, 130 when interrupted.`,
		Example: `  sentinel run --coder demo "add a Shout function"
  sentinel run --coder claude --task TASK.md
  sentinel run --coder demo --plain --apply none "try it"
  sentinel run --coder acp "fix the flaky test" -- gemini --acp  # any Agent Client Protocol agent
  sentinel run --coder aider "tidy the docs"                    # Aider; the sandbox is its only gate
  sentinel run --coder command "tidy the docs" -- ./tidy.sh     # any program; the sandbox is its only gate`,
		RunE: func(c *cobra.Command, args []string) error {
			if dash := c.ArgsLenAtDash(); dash >= 0 {
				f.command, args = args[dash:], args[:dash]
				if f.coder == "" {
					f.coder = "command"
				}
				if f.coder != "command" && f.coder != "acp" {
					return usageError{fmt.Errorf("a program after -- is for --coder command or --coder acp, not --coder %s", f.coder)}
				}
				if len(args) == 0 && f.taskFile == "" && f.coder == "command" {
					args = append([]string{"run"}, f.command...)
				}
			}
			task, err := readTask(f.taskFile, args)
			if err != nil {
				return err
			}
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			return startRun(c.Context(), f, task, wd)
		},
	}
	f.register(cmd, true)
	return cmd
}

func readTask(file string, args []string) (string, error) {
	if file != "" && len(args) > 0 {
		return "", usageError{errors.New("give the task either as text or with --task FILE, not both")}
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--task %s: %w", file, err)
		}
		if strings.TrimSpace(string(b)) == "" {
			return "", usageError{fmt.Errorf("--task %s is empty: write the task in it", file)}
		}
		return strings.TrimSpace(string(b)), nil
	}
	task := strings.TrimSpace(strings.Join(args, " "))
	if task == "" {
		return "", usageError{errors.New(`no task: give it as text (sentinel run --coder demo "add a health endpoint") or with --task FILE`)}
	}
	return task, nil
}

// startRun checks everything a run needs, runs it with the right view and
// turns its outcome into an exit status.
func startRun(ctx context.Context, f runFlags, task, dir string) error {
	apply, err := runner.ParseApplyMode(f.apply)
	if err != nil {
		return usageError{err}
	}
	mode, err := parseSandboxMode(f.sandbox)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	project, cfg, notices, err := openLaunch(ctx, dir, runner.FindProject)
	if err != nil {
		return err
	}
	if f.coder == "" {
		f.coder = cfg.Coder
	}
	if f.coder == "" {
		f.coder = "claude"
	}
	if f.theme, err = pickTheme(f.theme, cfg.Theme); err != nil {
		return err
	}
	adversaryRuns := f.adversaryRuns
	switch f.preset {
	case "deep":
	case "everyday":
		adversaryRuns = 0
	default:
		return usageError{fmt.Errorf("--preset %q: want deep or everyday", f.preset)}
	}
	if adversaryRuns < 0 {
		return usageError{fmt.Errorf("--adversary-runs %d: want 0 or more", adversaryRuns)}
	}
	if f.maxRestarts < 0 {
		return usageError{fmt.Errorf("--max-restarts %d: want 0 or more (0: no restart)", f.maxRestarts)}
	}
	if f.headless {
		if f.coder != "claude" {
			return usageError{fmt.Errorf("--headless works with --coder claude, not %q", f.coder)}
		}
		f.coder = "claude-headless"
	}
	if _, err := runner.NewAdapter(f.coder, f.scenario, f.command); err != nil {
		if errors.As(err, new(runner.CoderNameError)) {
			return usageError{err}
		}
		return err
	}
	supCfg, supOn, err := f.sup.config(cfg.Supervisor)
	if err != nil {
		return err
	}
	var buildSup func(string, *journal.Journal, string) *supervisor.Supervisor
	var prompts *supervisor.Prompts
	if supOn {
		if buildSup, prompts, err = supervisorFactory(ctx, supCfg, cfg.Supervisor); err != nil {
			return err
		}
	}
	limits, err := f.limits()
	if err != nil {
		return err
	}
	var maxOutput int64
	if cfg.Journal.MaxOutput != "" {
		if maxOutput, err = runner.ParseSize(cfg.Journal.MaxOutput); err != nil || maxOutput <= 0 {
			return fmt.Errorf("config [journal] max_output %q: want a size such as 64MB", cfg.Journal.MaxOutput)
		}
	}
	checks := checksFor(f.verify, cfg, project.Root)
	interactive, useTUI, person, cols, rows := openTerminal(f.plain)
	r, err := runner.Start(ctx, runner.Options{
		Project: project, Task: task, Notices: notices, Preflight: func(s string) { fmt.Fprintln(os.Stderr, "sentinel: "+s) },
		Coder: runner.CoderOptions{Name: f.coder, Scenario: f.scenario, Command: f.command, Cols: cols, Rows: rows, MaxOutput: maxOutput},
		Sandbox: runner.SandboxOptions{Mode: mode, AllowHosts: append(cfg.Sandbox.AllowHosts, f.allowHosts...),
			Hidden: cfg.Sandbox.Hidden, Readable: cfg.Sandbox.Readable, DeniedExecutables: cfg.Service.DeniedExecutables, PidsMax: cfg.Sandbox.PidsMax},
		Approval: runner.ApprovalOptions{Person: person, Timeout: f.timeout, Queue: true},
		Supervision: runner.SupervisionOptions{Supervisor: buildSup, Prompts: prompts, AwayGrace: f.awayAfter,
			MaxRestarts: f.maxRestarts, AdversaryRuns: adversaryRuns, NoCompletionGate: f.preset == "everyday"},
		Landing: runner.LandingOptions{Apply: apply, Checks: checks, VerifyTimeout: cfg.VerifyTimeout(),
			Review: interactive, // the TUI's review screen or the plain prompt
			Limits: limits, Squash: f.squash},
	})
	if err != nil {
		return err
	}
	status := reportStatus(r, project.Root)
	res, err := showRun(ctx, r, person, useTUI, interactive, f.theme)
	if err != nil {
		status.final(r, r.Wait())
		return err
	}
	status.final(r, res)
	err = outcome(res)
	if err == nil && useTUI { // a failure's exit line says it all: print the end once
		fmt.Fprintln(os.Stderr, textsafe.Line(summary(res)))
	}
	endNotes(os.Stderr, r.ID(), r.Dir(), res, err)
	return err
}

// showRun shows a started run in the TUI or as plain lines until it ends
// (and, in the TUI, until the person leaves it), and returns its result.
// An error is the TUI's own failure.
func showRun(ctx context.Context, r *runner.Run, person *approvals.PersonQueue, useTUI, interactive bool, theme string) (runner.Result, error) {
	// A signal stops the run (its work is kept). A hangup also ends the
	// TUI: the terminal is gone, so nobody can read the end or press q, and
	// a TUI left waiting for a key would keep the process alive forever.
	// Signals are watched until this function returns, not only until the
	// run ends: the TUI outlives the run while the person reads it.
	tuiCtx, hangup := context.WithCancel(ctx)
	defer hangup()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		for {
			select {
			case s := <-sigs:
				r.Stop()
				if s == syscall.SIGHUP {
					hangup()
				}
			case <-tuiCtx.Done():
				return
			}
		}
	}()
	if useTUI {
		if err := tui.Run(tuiCtx, r, tui.Options{Theme: theme, Preview: r.PreviewGrant, Signal: tuiSignal(), ReduceMotion: tuiReduceMotion()}); err != nil {
			r.Stop()
			r.Wait()
			return runner.Result{}, err
		}
		r.Stop() // the person quit the TUI: a run still going ends here
		return r.Wait(), nil
	}
	runPlain(r, person, interactive, theme)
	return r.Wait(), nil
}

// runPlain prints the run's events as tagged lines and, at a terminal,
// answers approval prompts at a line prompt.
func runPlain(r *runner.Run, person *approvals.PersonQueue, interactive bool, theme string) {
	printer := plain.NewPrinter(os.Stdout, tui.PlainTags(os.Stdout, theme))
	events, cancel := r.Events()
	defer cancel()
	if person != nil && interactive {
		pr := &plain.Prompter{In: os.Stdin, Out: os.Stdout, Printer: printer, Bell: !tuiSignal().NoBell}
		go pr.Serve(person.Prompts(), r.Reviews(), r.Done())
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	printer.FollowQuiet(events, &plain.Quiet{After: plain.QuietAfter}, tick.C)
}

// checksFor picks the verification commands: --verify, else config, else
// what the project's files suggest.
func checksFor(flags []string, cfg config.Config, root string) []runner.Check {
	var out []runner.Check
	for _, c := range flags {
		out = append(out, runner.Check{Command: c, Source: "flag"})
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range cfg.Verify.Commands {
		out = append(out, runner.Check{Command: c, Source: "config"})
	}
	if len(out) > 0 {
		return out
	}
	return runner.DetectChecks(root)
}

// summary is the one line left on the terminal after the TUI closes.
func summary(res runner.Result) string {
	switch {
	case res.Landing != nil:
		return "sentinel: " + runner.LandingLine(*res.Landing)
	case res.Recovery != "":
		return fmt.Sprintf("sentinel: %s; work kept in %s", res.Status, res.Recovery)
	}
	return "sentinel: " + string(res.Status)
}

// outcome maps a run's result to the process exit status.
func outcome(res runner.Result) error {
	switch res.Status {
	case runner.StatusLanded:
		if stopped := (*runner.Stopped)(nil); errors.As(res.Err, &stopped) {
			fmt.Fprintln(os.Stderr, "sentinel: "+stopped.Error()) // exit 0: it landed
			return nil
		}
		if res.Err != nil { // landed, but e.g. a report could not be written
			fmt.Fprintln(os.Stderr, "sentinel: warning: "+res.Err.Error())
		}
		return nil
	case runner.StatusInterrupted:
		if stopped := (*runner.Stopped)(nil); errors.As(res.Err, &stopped) {
			return exitError{code: 130, err: stopped} // one line: where it stopped, where the work is
		}
		return exitError{code: 130, err: fmt.Errorf("%v; work kept in %s", res.Err, res.Recovery)}
	}
	msg := "run failed"
	if res.Err != nil {
		msg = res.Err.Error()
	}
	if res.Recovery != "" {
		msg += "; work kept in " + res.Recovery
	}
	return exitError{code: 1, err: errors.New(msg)}
}

// checkTheme says whether name is a theme the TUI can show: auto, a built-in
// or a user theme.
func checkTheme(name string) error {
	var user map[string]themes.Palette
	if dir, err := themes.Dir(); err == nil {
		user, _ = themes.LoadDir(dir)
	}
	_, err := themes.Resolve(name, true, user)
	return err
}
