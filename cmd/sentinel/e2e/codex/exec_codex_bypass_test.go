package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// Codex runs a call whose PreToolUse hook is killed (0.171.0): in place,
// while the card for a command waits, its hook dies — as if another of the
// coder's processes killed it — and Codex runs the command. Sentinel cannot
// undo that one call, but it sees its result, journals the gate as bypassed,
// stops the coder at once and ends the exec failed.
func TestExecCodexKilledHookStopsTheRun(t *testing.T) {
	t.Parallel()
	needCodex(t)
	dir := scratchRepo(t)
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	_, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.ExecCommand(asked, "")),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand("echo still going > after.txt", "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	tm := startTmux(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Write the file.")
	tm.openCodexUntil("the card for "+asked, has(asked, "[a] approve once"))
	// Only this test's hooks: other packages' tests run hooks at the same time.
	pattern := regexp.QuoteMeta(helperBin) + " hook codex"
	if out, err := exec.Command("pkill", "-9", "-f", pattern).CombinedOutput(); err != nil {
		t.Fatalf("pkill %s: %v %s", pattern, err, out)
	}
	tm.waitFor("the run stopped, failed", has("run failed"))
	tm.keys("q")
	s := tm.waitFor("sentinel to exit", has("SENTINEL-EXITED"))
	if strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Errorf("the exec ended 0 after its gate was bypassed:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err != nil {
		t.Logf("Codex did not run the call whose hook died (%v): it may fail closed now", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "after.txt")); err == nil {
		t.Error("the coder went on after the bypass: after.txt was written")
	}
	found := false
	for _, ev := range runEvents(t, dir, lastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			found = true
		}
	}
	if !found {
		t.Errorf("no %s event in the run's journal; screen:\n%s", approvals.KindGateBypassed, s)
	}
}
