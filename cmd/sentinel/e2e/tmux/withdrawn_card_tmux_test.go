package tmux

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestCardOfAnEndedProcessIsWithdrawn: the real binary under tmux, a
// sandboxed command that asks the proxy for a new host and then ends
// (timeout kills it) before anyone answers. Its host card goes away on its
// own, the screen says it was withdrawn, 1 then answers nothing, and the
// journal holds the request decided as withdrawn — never approved.
func TestCardOfAnEndedProcessIsWithdrawn(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "withdrawn.toml")
	e2etest.WriteFile(t, scenario, `
name = "withdrawn"

[[steps]]
id = "fetch"
shell = "timeout 20 curl -s https://withdrawn-card.example/ || true"

[[steps]]
id = "done"
done = "tried the host"
`)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	tm := e2etest.StartSentinelSized(t, 120, 40, dir, env, "run", "--coder", "demo", "--scenario", scenario, "Fetch it.")
	tm.WaitArmed("the command's card", e2etest.Has("APPROVAL · shell"))
	tm.PressUntil("1", "the command approved", func(s string) bool { return !strings.Contains(s, "APPROVAL · shell") })
	s := tm.WaitFor("the host card", e2etest.Has("APPROVAL · net", "withdrawn-card.example"))
	t.Logf("the card:\n%s", s)
	s = tm.WaitFor("the card withdrawn", e2etest.Has("withdrawn, the process that asked ended"))
	t.Logf("after the process ended:\n%s", s)
	if strings.Contains(s, "APPROVAL · net") {
		t.Fatalf("the host card is still up after its process ended:\n%s", s)
	}
	var found bool
	for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir))) {
		if j.Request.Host != "withdrawn-card.example" || !j.Decided {
			continue
		}
		found = true
		if j.Decision.Allowed() || j.Decision.Reason != approvals.WithdrawnReason {
			t.Errorf("the host's request was decided %+v, want withdrawn", j.Decision)
		}
	}
	if !found {
		t.Errorf("no decision journaled for the withdrawn host")
	}
}
