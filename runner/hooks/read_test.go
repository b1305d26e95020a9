package hooks

import (
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestCommandTextSendsTheWords: a command given as an argv goes to the
// broker as its words with their quoted line; which script it is judged as
// is the broker's reading (approvals.ShellCommand, TestShellCommand there),
// because a hook does not link the policy.
func TestCommandTextSendsTheWords(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		argv      []string
	}{
		{`"ls -la"`, "ls -la", nil},
		{`["bash","-lc","ls -la"]`, "bash -lc 'ls -la'", []string{"bash", "-lc", "ls -la"}},
		{`["/tmp/x/bash","-lc","ls"]`, "/tmp/x/bash -lc ls", []string{"/tmp/x/bash", "-lc", "ls"}},
	} {
		got, argv, err := commandText(tc.raw)
		if err != nil || got != tc.want || !slices.Equal(argv, tc.argv) {
			t.Errorf("commandText(%s) = %q, %q, %v; want %q, %q", tc.raw, got, argv, err, tc.want, tc.argv)
		}
	}
	for _, raw := range []string{``, `42`, `[]`, `{"a":1}`} {
		if _, _, err := commandText(raw); err == nil {
			t.Errorf("commandText(%s) accepted", raw)
		}
	}
}

func TestParseHookRejectsGarbage(t *testing.T) {
	for _, p := range []string{"", "garbage", "{", `{"hook_event_name":"PreToolUse"}`, `{"tool_name":"Bash","tool_input":{"command":42}}`, `{} {}`,
		// garbage only inside tool_input, which is read in place
		`{"tool_name":"Bash","tool_input":{"command":"ls","x":[1,]}}`, `{"tool_name":"Bash","tool_input":{"command":"l\s"}}`,
		`{"tool_name":"Bash","tool_input":"ls"}`, `{"tool_name":"Bash","input":["ls"]}`, `{"tool_name":"Bash","tool_input":{"command":"ls"}`} {
		if _, err := Read("claude", []byte(p)); err == nil {
			t.Errorf("Read(%q) accepted", p)
		}
	}
}

// A payload naming a member twice is refused, at the top and in
// tool_input: the agent's JavaScript keeps the last of the two, and a
// reader keeping another would judge a call the agent does not run.
// Names are matched exactly, as the agents match them: "Command" is not
// the command.
func TestParseHookRefusesAMemberGivenTwice(t *testing.T) {
	for _, p := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_input":{"command":"rm -rf ~"}}`,
	} {
		if ev, err := Read("claude", []byte(p)); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("Read(%s) = %+v, %v; want a refusal", p, ev.Request, err)
		}
	}
	ev, err := Read("claude", []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"Command":"rm -rf ~","command":"ls"}}`))
	if err != nil || ev.Request.Command != "ls" {
		t.Fatalf("Read took %+v, %v; want the command ls", ev.Request, err)
	}
}

func TestParseHookReports(t *testing.T) {
	ev, err := Read("claude", []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"stdout":"ok","exit_code":0},"tool_use_id":"t9"}`))
	if err != nil || ev.Report == nil || ev.Report.Lane != "tool" || ev.Report.Text != "Bash: make → exit 0" || ev.Report.ToolCallID != "t9" {
		t.Fatalf("PostToolUse → %+v %v", ev.Report, err)
	}
	for name, kind := range map[string]journal.Kind{"Stop": "coder-stop", "Notification": "notification"} {
		ev, err := Read("claude", []byte(`{"hook_event_name":"`+name+`","message":"Claude needs your permission"}`))
		if err != nil || ev.Report == nil || ev.Report.Lane != "coder" || ev.Report.Kind != kind {
			t.Fatalf("%s → %+v %v", name, ev.Report, err)
		}
	}
}

// Claude Code's StopFailure (a turn ended on an API error) is a report of
// its own kind, carrying the agent's error, that the broker accepts.
func TestParseHookStopFailure(t *testing.T) {
	ev, err := Read("claude", []byte(`{"hook_event_name":"StopFailure","error":"rate_limit",
		"last_assistant_message":"API Error: 429 slow down\nsecond line"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := ev.Report
	if r == nil || r.Lane != "coder" || r.Kind != coderstream.CoderStopFailure {
		t.Fatalf("report = %+v, want a coder-lane %s", r, coderstream.CoderStopFailure)
	}
	if r.Text != "StopFailure: rate_limit: API Error: 429 slow down" {
		t.Errorf("text = %q", r.Text)
	}
	if r.Reason != "rate_limit: API Error: 429 slow down" {
		t.Errorf("reason = %q: the run's failure is read from it, a value", r.Reason)
	}
	if err := approvals.CheckReport(*r); err != nil {
		t.Errorf("the broker refuses it: %v", err)
	}
	ev, _ = Read("claude", []byte(`{"hook_event_name":"StopFailure"}`))
	if ev.Report == nil || !strings.Contains(ev.Report.Text, "an API error ended the turn") {
		t.Errorf("a StopFailure without words = %+v", ev.Report)
	}
}

func TestParseHookToolFailures(t *testing.T) {
	ev, err := Read("claude", []byte(`{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_use_id":"toolu_1",
		"tool_input":{"command":"pyenv exec python3 -V"},"error":"Exit code 127\npyenv: python3: command not found"}`))
	if err != nil || ev.Report == nil {
		t.Fatalf("Read = %+v, %v", ev, err)
	}
	r := *ev.Report
	if !r.Failed || r.Kind != "tool-result" || r.Lane != "tool" || r.ToolCallID != "toolu_1" ||
		r.Text != "Bash: pyenv exec python3 -V → failed: Exit code 127" || !strings.Contains(string(r.Data), "command not found") {
		t.Errorf("report = %+v (data %s)", r, r.Data)
	}
	ev, err = Read("claude", []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"exit_code":2}}`))
	if err != nil || ev.Report == nil || !ev.Report.Failed || ev.Report.Text != "Bash: make → exit 2" {
		t.Errorf("a PostToolUse with exit 2: %+v, %v", ev.Report, err)
	}
	ev, err = Read("claude", []byte(`{"hook_event_name":"PostToolUse","tool_name":"mcp__x__y","tool_input":{},"tool_response":{"is_error":true}}`))
	if err != nil || ev.Report == nil || !ev.Report.Failed {
		t.Errorf("a PostToolUse whose response is an error: %+v, %v", ev.Report, err)
	}
	ev, err = Read("claude", []byte(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"true"},"tool_response":{"stdout":"","stderr":""}}`))
	if err != nil || ev.Report == nil || ev.Report.Failed {
		t.Errorf("a PostToolUse that went well: %+v, %v", ev.Report, err)
	}
}

// Gemini CLI's BeforeTool payloads: its search tool reads, and dir_path
// (relative to the project, or absolute) is where a command runs and what
// a listing or search reads.
func TestParseGeminiToolPayloads(t *testing.T) {
	for _, tc := range []struct {
		payload         string
		kind, path, cwd string
	}{
		{`{"tool_name":"grep_search","tool_input":{"pattern":"x"}}`, "read", "/ws", "/ws"},
		{`{"tool_name":"grep_search","tool_input":{"pattern":"x","dir_path":"src"}}`, "read", "/ws/src", "/ws"},
		{`{"tool_name":"list_directory","tool_input":{"dir_path":"/etc"}}`, "read", "/etc", "/ws"},
		{`{"tool_name":"run_shell_command","tool_input":{"command":"make","dir_path":"sub"}}`, "shell", "", "/ws/sub"},
		{`{"tool_name":"run_shell_command","tool_input":{"command":"make","dir_path":"/tmp"}}`, "shell", "", "/tmp"},
		{`{"tool_name":"read_file","tool_input":{"file_path":"/ws/a.go"}}`, "read", "/ws/a.go", "/ws"},
	} {
		ev, err := Read("gemini", []byte(`{"hook_event_name":"BeforeTool","cwd":"/ws",`+strings.TrimPrefix(tc.payload, "{")))
		if err != nil || ev.Request == nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		r := ev.Request
		if string(r.Kind) != tc.kind || r.Path != tc.path || r.Cwd != tc.cwd {
			t.Errorf("%s → kind %s, path %q, cwd %q; want %s, %q, %q", tc.payload, r.Kind, r.Path, r.Cwd, tc.kind, tc.path, tc.cwd)
		}
	}
}
