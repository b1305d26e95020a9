package approvals

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

func TestParseHookRequests(t *testing.T) {
	tests := []struct {
		adapter, payload string
		want             Request
	}{
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"npm test","description":"run"},"tool_use_id":"toolu_1"}`,
			Request{Kind: policy.KindShell, Command: "npm test", Cwd: "/w", ToolCallID: "toolu_1", Tool: "Bash"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a.go","content":"x"}}`,
			Request{Kind: policy.KindWrite, Path: "/w/a.go", Cwd: "/w", Tool: "Write"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"MultiEdit","tool_input":{"file_path":"/w/a.go","edits":[]}}`,
			Request{Kind: policy.KindEdit, Path: "/w/a.go", Cwd: "/w", Tool: "MultiEdit"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/w/n.ipynb"}}`,
			Request{Kind: policy.KindEdit, Path: "/w/n.ipynb", Cwd: "/w", Tool: "NotebookEdit"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Glob","tool_input":{"pattern":"**/*.go"}}`,
			Request{Kind: policy.KindRead, Path: "/w", Cwd: "/w", Tool: "Glob"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Read","tool_input":{"file_path":"/etc/passwd"}}`,
			Request{Kind: policy.KindRead, Path: "/etc/passwd", Cwd: "/w", Tool: "Read"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"WebFetch","tool_input":{"url":"https://pkg.go.dev/x","prompt":"p"}}`,
			Request{Kind: policy.KindNet, URL: "https://pkg.go.dev/x", Host: "pkg.go.dev", Cwd: "/w", Tool: "WebFetch"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"WebFetch","tool_input":{"url":"https://docs.example:8443/x","prompt":"p"}}`,
			Request{Kind: policy.KindNet, URL: "https://docs.example:8443/x", Host: "docs.example", Port: 8443, Cwd: "/w", Tool: "WebFetch"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"mcp__github__create_issue","tool_input":{}}`,
			Request{Kind: policy.KindMCP, Tool: "mcp__github__create_issue", Cwd: "/w"}},
		{HookClaude, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Task","tool_input":{}}`,
			Request{Kind: policy.KindOther, Tool: "Task", Cwd: "/w"}},
		{HookCodex, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"shell","tool_input":{"command":["bash","-lc","ls -la"],"workdir":"/w/sub"}}`,
			Request{Kind: policy.KindShell, Command: "ls -la", Cwd: "/w/sub", Tool: "shell"}},
		{HookCodex, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"exec_command","tool_input":{"cmd":["git","commit","-m","a b"]}}`,
			Request{Kind: policy.KindShell, Command: "git commit -m 'a b'", Cwd: "/w", Tool: "exec_command"}},
		{HookGemini, `{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"go test ./...","directory":"/w/pkg"}}`,
			Request{Kind: policy.KindShell, Command: "go test ./...", Cwd: "/w/pkg", Tool: "run_shell_command"}},
		{HookGemini, `{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"write_file","tool_input":{"file_path":"/w/x"}}`,
			Request{Kind: policy.KindWrite, Path: "/w/x", Cwd: "/w", Tool: "write_file"}},
		{HookCrush, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"make"}}`,
			Request{Kind: policy.KindShell, Command: "make", Cwd: "/w", Tool: "bash"}},
	}
	for _, tc := range tests {
		ev, err := ParseHook(tc.adapter, []byte(tc.payload))
		if err != nil || ev.Request == nil {
			t.Fatalf("%s %s: %v", tc.adapter, tc.payload, err)
		}
		got := *ev.Request
		got.Input = nil
		tc.want.Adapter = tc.adapter
		if gj, wj := mustJSON(got), mustJSON(tc.want); gj != wj {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.adapter, tc.payload, gj, wj)
		}
		if err := got.validate(); err != nil {
			t.Errorf("%s: mapped request is invalid: %v", tc.payload, err)
		}
	}
}

// TestCommandTextUnwrapsOnlyTheShell: an argv `<shell> -c SCRIPT` is judged
// as SCRIPT only where the policy's reader finds that script; a program
// named bash in the workspace or /tmp once had its -c argument judged in
// its place.
func TestCommandTextUnwrapsOnlyTheShell(t *testing.T) {
	for _, tc := range []struct{ argv, want string }{
		{`["bash","-lc","ls -la"]`, "ls -la"},
		{`["/bin/bash","-lc","ls -la"]`, "ls -la"},
		{`["/usr/bin/sh","-c","make"]`, "make"},
		{`["./bash","-c","ls"]`, "./bash -c ls"},
		{`["/tmp/x/bash","-lc","ls"]`, "/tmp/x/bash -lc ls"},
		{`["sub/sh","-c","ls"]`, "sub/sh -c ls"},
	} {
		got, err := commandText(tc.argv)
		if err != nil || got != tc.want {
			t.Errorf("commandText(%s) = %q, %v; want %q", tc.argv, got, err, tc.want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestParseHookRejectsGarbage(t *testing.T) {
	for _, p := range []string{"", "garbage", "{", `{"hook_event_name":"PreToolUse"}`, `{"tool_name":"Bash","tool_input":{"command":42}}`, `{} {}`} {
		if _, err := ParseHook(HookClaude, []byte(p)); err == nil {
			t.Errorf("ParseHook(%q) accepted", p)
		}
	}
	if _, err := ParseHook("vim", []byte(`{}`)); err == nil {
		t.Error("unknown adapter accepted")
	}
}

func TestParseHookReports(t *testing.T) {
	ev, err := ParseHook(HookClaude, []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"stdout":"ok","exit_code":0},"tool_use_id":"t9"}`))
	if err != nil || ev.Report == nil || ev.Report.Lane != "tool" || ev.Report.Text != "Bash: make → exit 0" || ev.Report.ToolCallID != "t9" {
		t.Fatalf("PostToolUse → %+v %v", ev.Report, err)
	}
	for name, kind := range map[string]journal.Kind{"Stop": "coder-stop", "Notification": "notification"} {
		ev, err := ParseHook(HookClaude, []byte(`{"hook_event_name":"`+name+`","message":"Claude needs your permission"}`))
		if err != nil || ev.Report == nil || ev.Report.Lane != "coder" || ev.Report.Kind != kind {
			t.Fatalf("%s → %+v %v", name, ev.Report, err)
		}
	}
}

func TestFormatHookAnswer(t *testing.T) {
	allow := Decision{Outcome: OutcomeAllow, By: "person", Reason: "ok"}
	deny := Decision{Outcome: OutcomeDeny, By: "policy:x", Reason: "r", Message: "use make test"}
	tests := []struct {
		ev   HookEvent
		d    Decision
		json string
		exit int
	}{
		{HookEvent{Adapter: HookClaude, Name: "PreToolUse"}, allow, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}`, 0},
		{HookEvent{Adapter: HookClaude, Name: "PreToolUse"}, deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use make test"}}`, 2},
		{HookEvent{Adapter: HookClaude, Name: "PermissionRequest"}, deny, `{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"use make test"},"hookEventName":"PermissionRequest"}}`, 2},
		{HookEvent{Adapter: HookGemini, Name: "BeforeTool"}, allow, `{"decision":"allow","reason":"ok"}`, 0},
		{HookEvent{Adapter: HookCrush, Name: "PreToolUse"}, deny, `{"decision":"deny","reason":"use make test"}`, 2},
	}
	for _, tc := range tests {
		a := FormatHookAnswer(tc.ev, tc.d)
		if strings.TrimSpace(string(a.Stdout)) != tc.json || a.Exit != tc.exit {
			t.Errorf("%s/%s %s → %s exit %d", tc.ev.Adapter, tc.ev.Name, tc.d.Outcome, a.Stdout, a.Exit)
		}
		if tc.exit == 2 && !strings.Contains(a.Stderr, "use make test") {
			t.Errorf("deny stderr %q lacks the message", a.Stderr)
		}
	}
	f := HookFailure(HookClaude, "", errors.New("no broker"))
	if f.Exit != 2 || !strings.Contains(f.Stderr, "no broker") {
		t.Fatalf("failure answer %+v", f)
	}
}
