package aider_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/aider"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Under sentinel run, Aider does the task and exits, commits nothing,
// writes nothing of its own into the workspace and keeps its history in
// the run's state.
func TestRunArgvDoesTheTaskAndLeavesTheWorkspaceAlone(t *testing.T) {
	a := aider.New(aider.Options{})
	state := t.TempDir()
	t.Setenv("OPENAI_API_BASE", "http://127.0.0.1:4567/v1")
	got, err := a.PrepareRun(coder.Setup{StateDir: state, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	argv, err := a.Argv("add hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--yes-always", "--no-auto-commits", "--no-gitignore", "--no-check-update", "--no-analytics"} {
		if !slices.Contains(argv, flag) {
			t.Errorf("argv %q lacks %s", argv, flag)
		}
	}
	if i := slices.Index(argv, "--map-tokens"); i < 0 || argv[i+1] != "0" {
		t.Errorf("argv %q: the repository map's cache would be written into the workspace", argv)
	}
	if i := slices.Index(argv, "--message"); i < 0 || argv[i+1] != "add hello.txt" {
		t.Errorf("argv %q does not pass the task", argv)
	}
	hist := filepath.Join(state, "aider")
	if i := slices.Index(argv, "--chat-history-file"); i < 0 || !strings.HasPrefix(argv[i+1], hist+string(filepath.Separator)) {
		t.Errorf("argv %q: the chat history is not in the run's state", argv)
	}
	if !slices.Contains(got.Needs.Writable, hist) {
		t.Errorf("writable %v lacks the history directory", got.Needs.Writable)
	}
	if !slices.Equal(got.Needs.AllowHosts, []string{"127.0.0.1:4567"}) {
		t.Errorf("hosts %v, want the OpenAI-compatible base's", got.Needs.AllowHosts)
	}
	if !slices.Contains(got.Needs.PassEnv, "OPENAI_API_BASE") || !slices.Contains(got.Needs.PassEnv, "OPENAI_API_KEY") {
		t.Errorf("pass %v lacks the model's variables", got.Needs.PassEnv)
	}
	if argv, _ := a.Argv(""); slices.Contains(argv, "--message") {
		t.Errorf("no task still passes --message: %q", argv)
	}
}

// In place (sentinel exec), Aider runs as the person started it, with their
// own arguments, and keeps its history where it always does.
func TestInPlaceRunsAsThePersonStartedIt(t *testing.T) {
	a, err := aider.Agent.InPlace(coder.InPlaceArgs{Launch: []string{"/usr/bin/python3", "/home/u/.local/bin/aider", "--model", "x"}, At: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.(coder.Preparer).PrepareRun(coder.Setup{StateDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	argv, _ := a.Argv("")
	if !slices.Equal(argv, []string{"/usr/bin/python3", "/home/u/.local/bin/aider", "--model", "x"}) {
		t.Errorf("argv %q", argv)
	}
	if a.Name() != aider.Agent.Name || coder.FailureSourceOf(a) != coder.ExitStatus || a.PerCommandApproval() {
		t.Errorf("name %q, failure %v, per-command %v", a.Name(), coder.FailureSourceOf(a), a.PerCommandApproval())
	}
}

// A missing aider is one line naming the fix.
func TestPreflightNamesTheInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := aider.New(aider.Options{}).Preflight()
	if err == nil || !strings.Contains(err.Error(), aider.Install) {
		t.Fatalf("preflight = %v", err)
	}
	bin := filepath.Join(t.TempDir(), "aider")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(bin))
	if err := aider.New(aider.Options{}).Preflight(); err != nil {
		t.Fatalf("aider on PATH: %v", err)
	}
}
