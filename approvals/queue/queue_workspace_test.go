package queue

import (
	"context"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/policy"
)

// TestPostRefusesAWorkspaceThatIsNotACleanAbsolutePath: the workspace a run
// posts (the console shows paths relative to it) is a clean absolute path
// or nothing.
func TestPostRefusesAWorkspaceThatIsNotACleanAbsolutePath(t *testing.T) {
	q := New(nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a post that is let through ends at once, without the refusal
	for _, ws := range []string{"rel/ws", "/a/../b", "/a//b"} {
		_, err := q.Post(ctx, servicewire.Peer{}, Post{Run: "r-1", Project: "/p", Workspace: ws,
			Request: approvals.Request{Kind: policy.KindShell, Command: "ls"}}, func(Posted) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "workspace") {
			t.Fatalf("workspace %q: err %v, want a refusal naming the workspace", ws, err)
		}
	}
}
