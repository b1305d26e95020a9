//go:build unix

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// hookFailing is a coder whose failure its stop-failure hook tells.
type hookFailing struct{ coder.Adapter }

func (hookFailing) FailureSource() coder.FailureSource { return coder.StopHook }

// A coder that exits while its hook's client is still at work: the client
// finishes before the group is ended, so its report is not lost.
func TestAnExitedCodersHookFinishesBeforeItsGroupEnds(t *testing.T) {
	t.Parallel()
	done := filepath.Join(t.TempDir(), "reported")
	cmd := exec.Command("sh", "-c", `(sleep 0.5; touch "$1") & exit 0`, "sh", done)
	procgroup.Own(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(t.TempDir(), "events.jsonl"), "r")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	r := &coderStage{runCore: &runCore{adapter: hookFailing{}, journal: j}}
	r.settleHooks(cmd.Process.Pid, time.Minute) // a bound on a hang, not the wait's length

	_ = procgroup.Kill(cmd.Process.Pid)
	if _, err := os.Stat(done); err != nil {
		t.Fatalf("the hook's client was ended before it reported: %v", err)
	}
	j.Sync()
	evs, _ := journal.ReadFile(j.Path())
	said := false
	for _, ev := range evs {
		said = said || (ev.Kind == KindNotice && strings.Contains(ev.Text, "hooks' reports"))
	}
	if !said {
		t.Error("the wait was not said on the system lane")
	}
}
