package supervisor

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/testbin"
)

// TestAFullDiskStopsTheRun: the run's journal lives on a small filesystem
// that the coder's output fills. The write that does not fit must not go
// unseen: the journal is cut back to its last complete line, the coder is
// stopped (it would otherwise sleep for ten minutes), nothing lands, the
// exit status is an error naming the journal and the cause, and the work
// is kept for recovery.
func TestAFullDiskStopsTheRun(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	runs := filepath.Join(dir, ".sentinel", "runs")
	os.MkdirAll(runs, 0o700)
	testbin.Tmpfs(t, runs, "512k")

	script := "echo kept > work.txt; yes 'a line of the coder talking at length, again and again' | head -c 4000000; exec sleep 600"
	cmd := exec.Command(e2etest.Bin, "run", "--plain", "--coder", "command", "talk a lot", "--", "sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(e2etest.HangBound): // a bound on a hang, not a speed check
		cmd.Process.Kill()
		<-exited
		t.Fatalf("the run went on after its journal could not be written:\n%s", stderr.String())
	}
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() == 0 {
		t.Fatalf("exit %v; want a failure\n%s", err, stderr.String())
	}
	id := e2etest.LastRun(t, dir)
	path := filepath.Join(runs, id, "events.jsonl")
	if !strings.Contains(stderr.String(), path) || !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("stderr does not name the journal %s and the cause:\n%s", path, stderr.String())
	}
	b, _ := os.ReadFile(path)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Errorf("the journal ends in a torn line (%d bytes)", len(b))
	}
	if _, err := journal.ReadFile(path); err != nil {
		t.Errorf("the journal does not read back: %v", err)
	}
	if branch := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); branch != "" {
		t.Errorf("a run with a gap in its journal landed: %s", branch)
	}
	if got, err := os.ReadFile(filepath.Join(dir, ".sentinel", "recovery", id, "workspace", "work.txt")); err != nil || string(got) != "kept\n" {
		t.Errorf("the work was not kept for recovery: %q %v", got, err)
	}
}
