package main

import (
	"context"
	"fmt"
	"os"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
	"golang.org/x/term"
)

// parseSandboxMode checks --sandbox (a usage error when unknown).
func parseSandboxMode(s string) (sandbox.Mode, error) {
	mode := sandbox.Mode(s)
	switch mode {
	case sandbox.ModeAuto, sandbox.ModeNS, sandbox.ModeBwrap, sandbox.ModeOff:
		return mode, sandbox.Supported(mode) // Windows: every mode but off is refused here, before anything starts
	}
	return mode, usageError{fmt.Errorf("--sandbox %q: want auto, ns, bwrap or off", s)}
}

// openLaunch is what run and exec do before anything starts: find the
// project (find: a repository for run, the top level or the directory for
// exec), refuse a blocked directory, and read the config; a project config
// left partly unused is told on stderr and returned as a notice for the run.
func openLaunch(ctx context.Context, dir string, find func(context.Context, string) (*runner.Project, error)) (*runner.Project, config.Config, []string, error) {
	project, err := find(ctx, dir)
	if err != nil {
		return nil, config.Config{}, nil, err
	}
	if err := checkBlocked(dir, project.Root); err != nil {
		return nil, config.Config{}, nil, err
	}
	cfg, projCfg, err := config.LoadProject(project.Root)
	if err != nil {
		return nil, config.Config{}, nil, err
	}
	pinHostPrograms(project.Root, cfg.Exec.Writable)
	var notices []string
	if w := projCfg.Warning(); w != "" {
		fmt.Fprintln(os.Stderr, "sentinel: "+w)
		notices = append(notices, w)
	}
	return project, cfg, notices, nil
}

// pickTheme is --theme when given (a usage error when unknown), else the
// config's.
func pickTheme(flag, configured string) (string, error) {
	if flag == "" {
		return configured, nil
	}
	if err := checkTheme(flag); err != nil {
		return "", usageError{fmt.Errorf("--theme: %w", err)}
	}
	return flag, nil
}

// openTerminal says whether a person is at this terminal (stdin is one),
// whether the TUI is shown (also stdout, and not --plain), the queue the
// plain prompt answers from, and the coder's pty size (120×40 without one).
func openTerminal(plain bool) (interactive, useTUI bool, person *approvals.PersonQueue, cols, rows int) {
	interactive = term.IsTerminal(int(os.Stdin.Fd()))
	useTUI = !plain && interactive && term.IsTerminal(int(os.Stdout.Fd()))
	if interactive {
		person = approvals.NewPersonQueue()
	}
	cols, rows = 120, 40
	if w, h, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		cols, rows = w, h
	}
	return
}
