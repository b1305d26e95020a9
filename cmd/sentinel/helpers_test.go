package main

// The end-to-end helpers under the names this package's tests use; they live
// in cmd/sentinel/internal/e2etest. The packages under cmd/sentinel/e2e call
// them by their e2etest names, with no such file (TestNoE2EAliases checks).

import (
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// sentinelBin is the sentinel binary under test and helperBin the
// sentinel-helper beside it (set by TestMain through e2etest.Main).
var sentinelBin, helperBin string

// result is what a run of a binary did.
type result struct {
	code           int
	stdout, stderr string
}

func resultOf(r e2etest.Result) result { return result{r.Code, r.Stdout, r.Stderr} }

// sentinel runs sentinelBin in dir with stdin from /dev/null (no person at
// a terminal) and an isolated user config directory.
func sentinel(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	return resultOf(e2etest.Run(t, sentinelBin, dir, env, args...))
}

// runBin is sentinel with another build of the binary (see
// testbin.SentinelWithTestHooks).
func runBin(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	return resultOf(e2etest.Run(t, bin, dir, env, args...))
}

// killNineWhen starts sentinel with args in dir, waits until its run's
// journal contains marker, then kills it with SIGKILL; it returns the
// journal's path.
func killNineWhen(t *testing.T, dir, marker string, args ...string) string {
	t.Helper()
	return e2etest.KillNineWhen(t, sentinelBin, dir, marker, args...)
}

type (
	journaled  = approvals.Journaled
	syncBuffer = e2etest.SyncBuffer
)

// tmuxRun is sentinel running in a tmux window, driven like a person.
type tmuxRun struct {
	*e2etest.Tmux
	t *testing.T
}

// startTmux starts sentinelBin with args in dir in a 200×60 tmux window.
func startTmux(t *testing.T, dir string, env []string, args ...string) *tmuxRun {
	t.Helper()
	return &tmuxRun{e2etest.StartTmux(t, sentinelBin, dir, env, args...), t}
}

// startTmuxSized is startTmux in a window cols by rows.
func startTmuxSized(t *testing.T, cols, rows int, dir string, env []string, args ...string) *tmuxRun {
	t.Helper()
	return &tmuxRun{e2etest.StartTmuxSized(t, sentinelBin, cols, rows, dir, env, args...), t}
}

func (tm *tmuxRun) tmux(args ...string) string { return tm.Cmd(args...) }
func (tm *tmuxRun) keys(keys ...string)        { tm.Keys(keys...) }
func (tm *tmuxRun) typeText(s string)          { tm.TypeText(s) }
func (tm *tmuxRun) screen() string             { return tm.Screen() }
func (tm *tmuxRun) landFromReview(files int)   { tm.t.Helper(); tm.LandFromReview(files) }
func (tm *tmuxRun) waitRequests(model *fakemodel.Server, n int) {
	tm.t.Helper()
	tm.WaitRequests(model, n)
}
func (tm *tmuxRun) waitFor(what string, cond func(string) bool) string {
	tm.t.Helper()
	return tm.WaitFor(what, cond)
}
func (tm *tmuxRun) waitArmed(what string, cond func(string) bool) string {
	tm.t.Helper()
	return tm.WaitArmed(what, cond)
}
func (tm *tmuxRun) pressUntil(key, what string, cond func(string) bool) {
	tm.t.Helper()
	tm.PressUntil(key, what, cond)
}

const (
	claudeTestKey   = e2etest.ClaudeTestKey
	opencodeVersion = e2etest.OpencodeVersion
	guardNotice     = e2etest.GuardNotice
	hangBound       = e2etest.HangBound // every wait's bound: a hang's, never a speed check
)

var (
	git             = e2etest.Git
	writeFile       = e2etest.WriteFile
	script          = e2etest.Script
	scratchRepo     = e2etest.ScratchRepo
	scriptRepo      = e2etest.ScriptRepo
	calcProject     = e2etest.CalcProject
	checkout        = e2etest.Checkout
	runMeta         = e2etest.RunMeta
	runIDs          = e2etest.RunIDs
	second          = e2etest.Second
	lastRun         = e2etest.LastRun
	runEvents       = e2etest.RunEvents
	patchOf         = e2etest.PatchOf
	approvalsOf     = e2etest.ApprovalsOf
	describe        = e2etest.Describe
	needClaude      = e2etest.NeedClaude
	needCodex       = e2etest.NeedCodex
	needGemini      = e2etest.NeedGemini
	needOpencode    = e2etest.NeedOpencode
	claudeEnv       = e2etest.ClaudeEnv
	modelHost       = e2etest.ModelHost
	startModel      = e2etest.StartModel
	toolResults     = e2etest.ToolResults
	modelTurns      = e2etest.ModelTurns
	has             = e2etest.Has
	shq             = e2etest.Shq
	childPIDs       = e2etest.ChildPIDs
	waitGone        = e2etest.WaitGone
	jsonOf          = e2etest.JSONOf
	quoteTOML       = e2etest.QuoteTOML
	contains        = e2etest.Contains
	squeeze         = e2etest.Squeeze
	workspaceOf     = e2etest.WorkspaceOf
	codexScriptRepo = e2etest.CodexScriptRepo
)
