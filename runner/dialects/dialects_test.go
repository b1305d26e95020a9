package dialects

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/runner/crush"
	"github.com/sentinelhq/sentinel/runner/geminicli/geminihook"
	"github.com/sentinelhq/sentinel/runner/hooks"
	"github.com/sentinelhq/sentinel/runner/opencode"
)

func TestParseHookRequests(t *testing.T) {
	tests := []struct {
		adapter, payload string
		want             approvals.Request
	}{
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"npm test","description":"run"},"tool_use_id":"toolu_1"}`,
			approvals.Request{Kind: policy.KindShell, Command: "npm test", Cwd: "/w", ToolCallID: "toolu_1", Tool: "Bash"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a.go","content":"x"}}`,
			approvals.Request{Kind: policy.KindWrite, Path: "/w/a.go", Cwd: "/w", Tool: "Write"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"MultiEdit","tool_input":{"file_path":"/w/a.go","edits":[]}}`,
			approvals.Request{Kind: policy.KindEdit, Path: "/w/a.go", Cwd: "/w", Tool: "MultiEdit"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/w/n.ipynb"}}`,
			approvals.Request{Kind: policy.KindEdit, Path: "/w/n.ipynb", Cwd: "/w", Tool: "NotebookEdit"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Glob","tool_input":{"pattern":"**/*.go"}}`,
			approvals.Request{Kind: policy.KindRead, Path: "/w", Cwd: "/w", Tool: "Glob"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Read","tool_input":{"file_path":"/etc/passwd"}}`,
			approvals.Request{Kind: policy.KindRead, Path: "/etc/passwd", Cwd: "/w", Tool: "Read"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"WebFetch","tool_input":{"url":"https://pkg.go.dev/x","prompt":"p"}}`,
			approvals.Request{Kind: policy.KindNet, URL: "https://pkg.go.dev/x", Host: "pkg.go.dev", Cwd: "/w", Tool: "WebFetch"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"WebFetch","tool_input":{"url":"https://docs.example:8443/x","prompt":"p"}}`,
			approvals.Request{Kind: policy.KindNet, URL: "https://docs.example:8443/x", Host: "docs.example", Port: 8443, Cwd: "/w", Tool: "WebFetch"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"mcp__github__create_issue","tool_input":{}}`,
			approvals.Request{Kind: policy.KindMCP, Tool: "mcp__github__create_issue", Cwd: "/w"}},
		{claude.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Task","tool_input":{}}`,
			approvals.Request{Kind: policy.KindOther, Tool: "Task", Cwd: "/w"}},
		{codex.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"shell","tool_input":{"command":["bash","-lc","ls -la"],"workdir":"/w/sub"}}`,
			approvals.Request{Kind: policy.KindShell, Command: "bash -lc 'ls -la'", Argv: []string{"bash", "-lc", "ls -la"}, Cwd: "/w/sub", Tool: "shell"}},
		{codex.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"exec_command","tool_input":{"cmd":["git","commit","-m","a b"]}}`,
			approvals.Request{Kind: policy.KindShell, Command: "git commit -m 'a b'", Argv: []string{"git", "commit", "-m", "a b"}, Cwd: "/w", Tool: "exec_command"}},
		// Codex 0.171.0's own payloads: its shell tool is "Bash", apply_patch's patch is tool_input.command.
		{codex.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"echo hi > made.txt"},"tool_use_id":"call_1"}`,
			approvals.Request{Kind: policy.KindShell, Command: "echo hi > made.txt", Cwd: "/w", ToolCallID: "call_1", Tool: "Bash"}},
		{codex.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: p.txt\n+patched\n*** End Patch\n"}}`,
			approvals.Request{Kind: policy.KindEdit, Path: "p.txt", Cwd: "/w", Tool: "apply_patch"}},
		{geminihook.HookName, `{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"go test ./...","directory":"/w/pkg"}}`,
			approvals.Request{Kind: policy.KindShell, Command: "go test ./...", Cwd: "/w/pkg", Tool: "run_shell_command"}},
		{geminihook.HookName, `{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"write_file","tool_input":{"file_path":"/w/x"}}`,
			approvals.Request{Kind: policy.KindWrite, Path: "/w/x", Cwd: "/w", Tool: "write_file"}},
		{crush.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"make"}}`,
			approvals.Request{Kind: policy.KindShell, Command: "make", Cwd: "/w", Tool: "bash"}},
		{opencode.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"make","workdir":"sub","description":"d"},"tool_use_id":"toolu_9"}`,
			approvals.Request{Kind: policy.KindShell, Command: "make", Cwd: "/w/sub", ToolCallID: "toolu_9", Tool: "bash"}},
		{opencode.HookName, `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"write","tool_input":{"filePath":"a.go","content":"x"}}`,
			approvals.Request{Kind: policy.KindWrite, Path: "/w/a.go", Cwd: "/w", Tool: "write"}},
	}
	for _, tc := range tests {
		d, err := Lookup(tc.adapter)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := d.Parse([]byte(tc.payload))
		if err != nil || ev.Request == nil {
			t.Fatalf("%s %s: %v", tc.adapter, tc.payload, err)
		}
		got := *ev.Request
		got.Input = nil
		tc.want.Adapter = tc.adapter
		if gj, wj := mustJSON(got), mustJSON(tc.want); gj != wj {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.adapter, tc.payload, gj, wj)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: mapped request is invalid: %v", tc.payload, err)
		}
	}
}

// A command a hook gives as words reaches the broker as them, and the
// broker judges what the policy's reader finds there: the script of
// `bash -lc SCRIPT`, else the quoted words.
func TestArgvCommandsAreJudgedAsTheBrokerReadsThem(t *testing.T) {
	for payload, judged := range map[string]string{
		`{"hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc","ls -la"]}}`:        "ls -la",
		`{"hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["/tmp/x/bash","-lc","ls"]}}`:     "/tmp/x/bash -lc ls",
		`{"hook_event_name":"PreToolUse","tool_name":"exec_command","tool_input":{"cmd":["git","commit","-m","a b"]}}`: "git commit -m 'a b'",
	} {
		d, _ := Lookup(codex.HookName)
		ev, err := d.Parse([]byte(payload))
		if err != nil || ev.Request == nil {
			t.Fatalf("%s: %v", payload, err)
		}
		if got := approvals.ShellCommand(ev.Request.Argv); got != judged {
			t.Errorf("%s is judged as %q, want %q", payload, got, judged)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestParseHookRejectsUnknownAdapter(t *testing.T) {
	if _, err := Lookup("vim"); err == nil {
		t.Error("unknown adapter accepted")
	} else if want := `unknown hook adapter "vim" (want claude, codex, gemini, opencode or crush)`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestFormatHookAnswer(t *testing.T) {
	allow := approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person", Reason: "ok"}
	deny := approvals.Decision{Outcome: approvals.OutcomeDeny, By: "policy:x", Reason: "r", Message: "use make test"}
	tests := []struct {
		ev   hooks.Event
		d    approvals.Decision
		json string
		exit int
	}{
		{hooks.Event{Adapter: claude.HookName, Name: "PreToolUse"}, allow, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}`, 0},
		{hooks.Event{Adapter: claude.HookName, Name: "PreToolUse"}, deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use make test"}}`, 2},
		{hooks.Event{Adapter: claude.HookName, Name: "PermissionRequest"}, deny, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"use make test"}}}`, 2},
		{hooks.Event{Adapter: geminihook.HookName, Name: "BeforeTool"}, allow, `{"decision":"allow","reason":"ok"}`, 0},
		{hooks.Event{Adapter: crush.HookName, Name: "PreToolUse"}, deny, `{"decision":"deny","reason":"use make test"}`, 2},
		// Codex's hooks take Claude Code's answers, but a tool call's allow
		// is silence (0.171.0 calls permissionDecision "allow" unsupported).
		{hooks.Event{Adapter: codex.HookName, Name: "PreToolUse"}, deny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use make test"}}`, 2},
		{hooks.Event{Adapter: codex.HookName, Name: "PreToolUse"}, allow, ``, 0},
		{hooks.Event{Adapter: codex.HookName, Name: "PermissionRequest"}, allow, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, 0},
		{hooks.Event{Adapter: geminihook.HookName, Name: "BeforeTool"}, deny, `{"decision":"deny","reason":"use make test"}`, 2},
		{hooks.Event{Adapter: crush.HookName, Name: "PreToolUse"}, allow, `{"decision":"allow","reason":"ok"}`, 0},
		{hooks.Event{Adapter: opencode.HookName, Name: "PreToolUse"}, allow, `{"decision":"allow","reason":"ok"}`, 0},
		{hooks.Event{Adapter: opencode.HookName, Name: "PreToolUse"}, deny, `{"decision":"deny","reason":"use make test"}`, 2},
	}
	for _, tc := range tests {
		d, err := Lookup(tc.ev.Adapter)
		if err != nil {
			t.Fatal(err)
		}
		a := d.Answer(tc.ev, tc.d)
		if strings.TrimSpace(string(a.Stdout)) != tc.json || a.Exit != tc.exit {
			t.Errorf("%s/%s %s → %s exit %d", tc.ev.Adapter, tc.ev.Name, tc.d.Outcome, a.Stdout, a.Exit)
		}
		if tc.exit == 2 && !strings.Contains(a.Stderr, "use make test") {
			t.Errorf("deny stderr %q lacks the message", a.Stderr)
		}
	}
	claudeDialect, _ := Lookup(claude.HookName)
	f := hooks.Failure(claudeDialect, "", errors.New("no broker"))
	if f.Exit != 2 || !strings.Contains(f.Stderr, "no broker") {
		t.Fatalf("failure answer %+v", f)
	}
}

// Only Claude Code and Codex take a note with a tool's result; the others
// print nothing after a report.
func TestOnlyClaudeAndCodexPrintNotes(t *testing.T) {
	for _, d := range All() {
		out := d.Note(hooks.Event{Adapter: d.Name(), Name: "PostToolUse"}, "refused a.example:443")
		if (out != nil) != (d.Name() == claude.HookName || d.Name() == "codex") {
			t.Errorf("%s: note printed as %q", d.Name(), out)
		}
	}
}

func TestNamesAreTheRegistry(t *testing.T) {
	if got := strings.Join(Names(), "|"); got != "claude|codex|gemini|opencode|crush" {
		t.Errorf("Names = %s", got)
	}
	for _, n := range Names() {
		if d, err := Lookup(n); err != nil || d.Name() != n {
			t.Errorf("Lookup(%s) = %v, %v", n, d, err)
		}
	}
}
