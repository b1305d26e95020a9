package tmux

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// TestClosingTheTerminalEndsTheRun: a TUI run whose terminal goes away
// (tmux kill-session hangs up on it, as closing a terminal window does)
// journals the run as interrupted, keeps the work, and the process exits
// with every process it started gone — it is not left asleep, re-parented
// to init, waiting for a key nobody can press.
func TestClosingTheTerminalEndsTheRun(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	tm := e2etest.StartSentinel(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()},
		"run", "--coder", "demo", "Add a Shout function.")
	tm.WaitFor("an approval card", e2etest.Has("APPROVAL ·"))
	pane := strings.TrimSpace(tm.Cmd("display", "-p", "-t", "e2e", "#{pane_pid}"))
	kids := e2etest.ChildPIDs(pane)
	if len(kids) != 1 {
		t.Fatalf("the pane's shell has children %v; want the sentinel process alone", kids)
	}
	procs := append(kids, descendants(kids[0])...)
	if len(procs) < 2 {
		t.Fatalf("sentinel (pid %d) has no children; want the coder running", kids[0])
	}

	tm.Cmd("kill-session", "-t", "e2e")

	e2etest.Until(func() bool { return len(alive(procs)) == 0 })
	if left := alive(procs); len(left) > 0 {
		t.Fatalf("after the terminal closed, these are still running: %v (sentinel was %d)", left, kids[0])
	}
	evs := e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir))
	last := evs[len(evs)-1]
	if last.Kind != "run-end" || !strings.Contains(last.Text, "interrupted") {
		t.Errorf("the journal ends with %s %q; want run-end interrupted", last.Kind, last.Text)
	}
	kept := false
	for _, ev := range evs {
		kept = kept || ev.Kind == "recovery"
	}
	if !kept {
		t.Error("the journal does not say where the work was kept")
	}
}

// descendants lists every process below pid.
func descendants(pid int) []int {
	var out []int
	for _, c := range e2etest.ChildPIDs(strconv.Itoa(pid)) {
		out = append(out, c)
		out = append(out, descendants(c)...)
	}
	return out
}

// alive is the pids that still run (a zombie nobody reaped counts as gone:
// it runs nothing and holds nothing).
func alive(pids []int) []int {
	var out []int
	for _, pid := range pids {
		if !procgroup.Alive(pid) {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		// the state follows the command name in parentheses
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && strings.HasPrefix(string(b[i+1:]), " Z") {
			continue
		}
		out = append(out, pid)
	}
	return out
}
