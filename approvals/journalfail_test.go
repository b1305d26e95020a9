package approvals

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// TestNothingIsAllowedOnceTheJournalFails: with the run's journal on a
// full disk, a request that policy alone would allow is denied, so nothing
// happens unrecorded.
func TestNothingIsAllowedOnceTheJournalFails(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir, err := os.MkdirTemp("", "jf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), "r-test")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	b, err := NewBroker(BrokerConfig{SocketPath: filepath.Join(dir, "b.sock"), RunID: "r-test", Journal: j,
		Decider: allowAll("person"), Context: policy.Context{Workspace: dir, Cwd: dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	req := Request{Kind: policy.KindShell, Command: unknownShell}
	if d := b.Decide(context.Background(), req); !d.Allowed() {
		t.Fatalf("before the disk filled: %+v", d)
	}
	if _, err := j.Append(journal.Coder, "output", strings.Repeat("z", 128<<10), nil); err == nil {
		t.Fatal("128 KiB fitted on a 64 KiB disk")
	}
	d := b.Decide(context.Background(), req)
	if d.Allowed() || !strings.Contains(d.Reason, "journal cannot be written") {
		t.Errorf("with the journal failed: %+v; want denied naming the journal", d)
	}
}
