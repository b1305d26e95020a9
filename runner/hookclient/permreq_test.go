package hookclient

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/claude/claudehook"
)

// A run's Claude PermissionRequest step (the switch on) denies without a
// broker to ask — it never asks one — and exits 0, so Claude reads its
// JSON as a decision; garbled input is still a deny. Without the switch a
// PreToolUse whose broker is gone is a one-step deny (exit 2), not an ask.
func TestClaudePermissionRequestStepOnlyDenies(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	gone := filepath.Join(t.TempDir(), "no.sock")
	run := func(payload string) (int, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), "claude", strings.NewReader(payload), &out, &errb, gone)
		return code, out.String()
	}
	t.Setenv(claudehook.EnvDenyByPermissionRequest, "1")
	code, out := run(`{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if code != 0 || !strings.Contains(out, `"behavior":"deny"`) || !strings.Contains(out, claudehook.NoRecordReason) {
		t.Errorf("PermissionRequest step: exit %d, %s; want exit 0 and a deny", code, out)
	}
	code, out = run(`{"hook_event_name":"PermissionRequest","tool_name":`)
	if code != 2 || !strings.Contains(out, `"deny"`) {
		t.Errorf("garbled PermissionRequest: exit %d, %s; want exit 2 and a deny", code, out)
	}
	code, out = run(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}`)
	if code != 2 || !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("PreToolUse with the broker gone: exit %d, %s; want a one-step deny", code, out)
	}
}
