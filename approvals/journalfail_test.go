package approvals

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/policy"
)

// TestNothingIsAllowedOnceTheJournalFails: with the run's journal on a
// full disk, a request that policy alone would allow is denied, so nothing
// happens unrecorded.
func TestNothingIsAllowedOnceTheJournalFails(t *testing.T) {
	dir, err := os.MkdirTemp("", "jf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	testbin.Tmpfs(t, dir, "64k")
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
