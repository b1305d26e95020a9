//go:build unix

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// hookFailing is a coder whose failure its stop-failure hook tells.
type hookFailing struct{ coder.Adapter }

func (hookFailing) FailureSource() coder.FailureSource { return coder.StopHook }

// A coder that exits while its hook's client is still at work: the client
// finishes before the group is ended, so its report is not lost.
func TestAnExitedCodersHookFinishesBeforeItsGroupEnds(t *testing.T) {
	done := filepath.Join(t.TempDir(), "reported")
	cmd := exec.Command("sh", "-c", `(sleep 0.5; touch "$1") & exit 0`, "sh", done)
	procgroup.Own(cmd)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	r := &coderStage{runCore: &runCore{adapter: hookFailing{}}}
	r.settleHooks(cmd.Process.Pid)
	_ = procgroup.Kill(cmd.Process.Pid)
	if _, err := os.Stat(done); err != nil {
		t.Fatalf("the hook's client was ended before it reported: %v", err)
	}
}
