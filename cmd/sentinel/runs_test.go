package main

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/runner"
)

const longTask = "add a health endpoint to the server, document it in the README, and test every status code it can return"

// At an 80-column terminal sentinel runs fits the width, cutting the task
// with …; piped, it is one tab-separated line per run with the task whole.
func TestRunsFitsTheTerminalAndIsTabSeparatedWhenPiped(t *testing.T) {
	dir := e2etest.ScratchRepo(t)
	if res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", longTask, "--", "sh", "-c", "echo ok > health.txt"); res.Code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	id := e2etest.RunMeta(t, dir)[0].ID

	tm := e2etest.StartSentinelSized(t, 80, 24, dir, nil, "runs")
	screen := tm.WaitFor("the runs table", func(s string) bool { return strings.Contains(s, "SENTINEL-EXITED") })
	if !strings.Contains(screen, "SENTINEL-EXITED 0") || !strings.Contains(screen, "RUN") || !strings.Contains(screen, id) ||
		!strings.Contains(screen, "add a health endpoint") || !strings.Contains(screen, "…") || strings.Contains(screen, "status code it can return") {
		t.Fatalf("runs at 80 columns does not show the run with its task cut:\n%s", screen)
	}
	// tmux wraps a line wider than the window: the run's row must be one
	// line, its task cut, not wrapped onto the next.
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, id) && !strings.HasSuffix(strings.TrimRight(l, " "), "…") {
			t.Fatalf("the run's row is not cut at the width: %q\n%s", l, screen)
		}
	}

	piped := e2etest.Sentinel(t, dir, nil, "runs")
	lines := strings.Split(strings.TrimRight(piped.Stdout, "\n"), "\n")
	if piped.Code != 0 || len(lines) != 2 || lines[0] != "RUN\tSTATUS\tCODER\tSTARTED\tDURATION\tDECISIONS\tTASK" {
		t.Fatalf("piped runs: exit %d\n%q", piped.Code, piped.Stdout)
	}
	f := strings.Split(lines[1], "\t")
	if len(f) != 7 || f[0] != id || !strings.HasPrefix(f[1], "landed") || f[2] != "command" || f[6] != longTask {
		t.Fatalf("piped row is not 7 whole tab-separated fields: %q", lines[1])
	}
}

// No line of the fitted table is wider than the terminal, whatever the
// width and however wide the task's characters; the task is cut first, and
// columns go only when even a short task does not fit.
func TestRunsFitNeverExceedsTheWidth(t *testing.T) {
	start := time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)
	metas := []*runner.Meta{
		{ID: "20261201-020000-aaaaaa", Status: "landed", Coder: "claude-headless", Task: longTask, Started: start, Ended: start.Add(3 * time.Second),
			Landing: &runner.Landing{Branch: "sentinel/20261201-020000-aaaaaa"}, Decisions: &runner.Decisions{Allowed: 12, Denied: 3}},
		{ID: "20261201-010000-bbbbbb", Status: "interrupted", Coder: "demo", Task: "全角の文字で書かれたとても長いタスクの説明文です。\ttabs\tand\nnewlines", Started: start, Ended: start.Add(time.Minute),
			Recovery: ".sentinel/recovery/x"},
	}
	for _, w := range []int{240, 120, 80, 60, 40, 20} {
		out := runsFit(metas, nil, w)
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if ansi.StringWidth(l) > w || strings.ContainsAny(l, "\t\r") {
				t.Errorf("width %d: line %d cells wide: %q", w, ansi.StringWidth(l), l)
			}
		}
		if w >= 120 && (!strings.Contains(out, "DECISIONS") || !strings.Contains(out, "✓12 ✗3")) {
			t.Errorf("width %d: decisions dropped though the task fits:\n%s", w, out)
		}
		if w == 240 && !strings.Contains(out, longTask) {
			t.Errorf("width 240 cuts a task that fits:\n%s", out)
		}
	}
}
