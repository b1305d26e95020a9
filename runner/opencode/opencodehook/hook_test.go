package opencodehook

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// A payload the dialect cannot read is an error (the hook then denies):
// never a request it made up, never an allow.
func TestParseRejectsGarbledPayloads(t *testing.T) {
	for _, p := range []string{
		"",
		"   \n",
		"garbage",
		"{",
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"}} {}`,
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"}}x`,
		`[]`,
		`"PreToolUse"`,
		`{"tool_name":"bash","tool_input":{"command":"ls"}}`,                                            // no event
		`{"hook_event_name":"PreToolUse"}`,                                                              // no tool
		`{"hook_event_name":"PreToolUse","tool_name":"bash"}`,                                           // no command
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{}}`,                           // no command
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":null}}`,             // no command
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":42}}`,               // not a command
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":"rm -rf /"}`,                   // not an object
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":["rm"]}`,                       // not an object
		`{"hook_event_name":"PreToolUse","tool_name":"read","tool_input":{"filePath":7}}`,               // not a path
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls","workdir":1}}`, // not a dir
		`{"hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"},"cwd":"rel"}`, // cwd not absolute
		`{"hook_event_name":7,"tool_name":"bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":{"x":1},"tool_input":{"command":"ls"}}`,
	} {
		ev, err := HookDialect.Parse([]byte(p))
		if err == nil {
			t.Errorf("Parse(%q) accepted: %+v", p, ev)
		}
	}
}

// What a garbled payload becomes: a deny in opencode's answer, exit 2.
func TestAnswerDeniesWhatItCannotRead(t *testing.T) {
	_, err := HookDialect.Parse([]byte("{"))
	a := hooks.Failure(HookDialect, "PreToolUse", err)
	if a.Exit != 2 || !strings.Contains(string(a.Stdout), `"decision":"deny"`) || !strings.Contains(a.Stderr, "not JSON") {
		t.Fatalf("answer = %s exit %d stderr %q", a.Stdout, a.Exit, a.Stderr)
	}
}

// opencode's tools are judged by what opencode acts on: its own argument
// names, relative paths resolved against the directory it runs in, and an
// argument opencode ignores (cwd, file_path, cmd) never judged in place of
// the one it uses.
func TestParseMapsOpencodeTools(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    approvals.Request
	}{
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"go test ./...","description":"test"},"tool_use_id":"c1"}`,
			approvals.Request{Kind: policy.KindShell, Command: "go test ./...", Cwd: "/w", Tool: "bash", ToolCallID: "c1"}},
		// A cwd or cmd the model adds is not where or what bash runs.
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"rm -rf build","cwd":"/tmp/safe","cmd":"true","workdir":"/w/pkg"}}`,
			approvals.Request{Kind: policy.KindShell, Command: "rm -rf build", Cwd: "/w/pkg", Tool: "bash"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"ls","directory":"/tmp/safe"}}`,
			approvals.Request{Kind: policy.KindShell, Command: "ls", Cwd: "/w", Tool: "bash"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"read","tool_input":{"filePath":"/etc/passwd","offset":1}}`,
			approvals.Request{Kind: policy.KindRead, Path: "/etc/passwd", Cwd: "/w", Tool: "read"}},
		// A file_path or path the model adds is not the file opencode writes.
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"write","tool_input":{"filePath":"../../home/u/.bashrc","file_path":"/w/ok.txt","path":"/w/ok.txt","content":"x"}}`,
			approvals.Request{Kind: policy.KindWrite, Path: "/home/u/.bashrc", Cwd: "/w", Tool: "write"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"edit","tool_input":{"filePath":"a.go","oldString":"a","newString":"b"}}`,
			approvals.Request{Kind: policy.KindEdit, Path: "/w/a.go", Cwd: "/w", Tool: "edit"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"multiedit","tool_input":{"filePath":"/w/b.go","edits":[]}}`,
			approvals.Request{Kind: policy.KindEdit, Path: "/w/b.go", Cwd: "/w", Tool: "multiedit"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"glob","tool_input":{"pattern":"**/*.go"}}`,
			approvals.Request{Kind: policy.KindRead, Path: "/w", Cwd: "/w", Tool: "glob"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"grep","tool_input":{"pattern":"x","path":"src"}}`,
			approvals.Request{Kind: policy.KindRead, Path: "/w/src", Cwd: "/w", Tool: "grep"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"list","tool_input":{"path":"/srv"}}`,
			approvals.Request{Kind: policy.KindRead, Path: "/srv", Cwd: "/w", Tool: "ls"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"webfetch","tool_input":{"url":"https://pkg.go.dev/x","format":"markdown"}}`,
			approvals.Request{Kind: policy.KindNet, URL: "https://pkg.go.dev/x", Host: "pkg.go.dev", Cwd: "/w", Tool: "webfetch"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"websearch","tool_input":{"query":"go 1.24"}}`,
			approvals.Request{Kind: policy.KindNet, Host: "web-search", Cwd: "/w", Tool: "websearch"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"apply_patch","tool_input":{"patchText":"*** Begin Patch\n*** Update File: m.go\n@@\n-a\n+b\n*** End Patch"}}`,
			approvals.Request{Kind: policy.KindEdit, Path: "m.go", Cwd: "/w", Tool: "apply_patch"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"todowrite","tool_input":{"todos":[]}}`,
			approvals.Request{Kind: policy.KindOther, Cwd: "/w", Tool: "TodoWrite"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"task","tool_input":{"prompt":"p","subagent_type":"general"}}`,
			approvals.Request{Kind: policy.KindOther, Cwd: "/w", Tool: "Task"}},
		// An MCP tool (server_tool) or any other: kind other, for a person.
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"github_create_issue","tool_input":{"title":"t"}}`,
			approvals.Request{Kind: policy.KindOther, Cwd: "/w", Tool: "github_create_issue"}},
		{`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"skill","tool_input":{"name":"x"}}`,
			approvals.Request{Kind: policy.KindOther, Cwd: "/w", Tool: "skill"}},
	} {
		ev, err := HookDialect.Parse([]byte(tc.payload))
		if err != nil || ev.Request == nil {
			t.Errorf("Parse(%s) = %+v, %v", tc.payload, ev, err)
			continue
		}
		got := *ev.Request
		if !strings.Contains(tc.payload, string(got.Input)) {
			t.Errorf("%s: the person would see %s, not opencode's arguments", tc.payload, got.Input)
		}
		got.Input = nil
		tc.want.Adapter = HookName
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%s)\n got %+v\nwant %+v", tc.payload, got, tc.want)
		}
		if err := got.Validate(); err != nil && tc.want.Kind != policy.KindOther {
			t.Errorf("%s: the request is invalid: %v", tc.payload, err)
		}
	}
}

// The policy knows opencode's bookkeeping tools under their shared names:
// a todo list or a subagent needs no person (the subagent's own calls come
// through the plugin one by one).
func TestBookkeepingToolsNeedNoPerson(t *testing.T) {
	e := policy.Default()
	for _, tool := range []string{"todowrite", "todoread", "task"} {
		ev, err := HookDialect.Parse([]byte(`{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"` + tool + `","tool_input":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Check(policy.Query{Kind: ev.Request.Kind, Tool: ev.Request.Tool}); v.Decision != policy.Allow {
			t.Errorf("%s → %s (%s), want allow", tool, v.Decision, v.Reason)
		}
	}
}

// After a call, the plugin's report is a tool result with the command's
// exit status; a session's stop and failure are the coder's.
func TestParseReports(t *testing.T) {
	ev, err := HookDialect.Parse([]byte(`{"hook_event_name":"PostToolUse","cwd":"/w","tool_name":"bash","tool_use_id":"c2",
		"tool_input":{"command":"make","description":"d"},"tool_response":{"title":"make","metadata":{"exit":2,"output":"boom"},"output":"boom"}}`))
	if err != nil || ev.Report == nil {
		t.Fatalf("PostToolUse → %+v, %v", ev, err)
	}
	r := ev.Report
	if r.Kind != coderstream.ToolResult || r.Text != "bash: make → exit 2" || !r.Failed || r.ToolCallID != "c2" || r.Adapter != HookName {
		t.Errorf("report = %+v", r)
	}
	if err := approvals.CheckReport(*r); err != nil {
		t.Errorf("the broker refuses it: %v", err)
	}
	ev, err = HookDialect.Parse([]byte(`{"hook_event_name":"PostToolUse","cwd":"/w","tool_name":"write","tool_input":{"filePath":"a.txt","content":"x"},"tool_response":{"title":"a.txt","metadata":{},"output":"Wrote file successfully."}}`))
	if err != nil || ev.Report == nil || ev.Report.Failed || ev.Report.Text != "write: /w/a.txt" {
		t.Errorf("a write's report = %+v, %v", ev.Report, err)
	}
	ev, err = HookDialect.Parse([]byte(`{"hook_event_name":"Stop","cwd":"/w"}`))
	if err != nil || ev.Report == nil || ev.Report.Kind != coderstream.CoderStop {
		t.Errorf("Stop → %+v, %v", ev.Report, err)
	}
	ev, err = HookDialect.Parse([]byte(`{"hook_event_name":"StopFailure","cwd":"/w","error":"APIError","error_details":"401 invalid x-api-key\nmore"}`))
	if err != nil || ev.Report == nil || ev.Report.Kind != coderstream.CoderStopFailure || ev.Report.Text != "StopFailure: APIError: 401 invalid x-api-key" {
		t.Errorf("StopFailure → %+v, %v", ev.Report, err)
	}
	if HookDialect.Note(ev, "refused a.example:443") != nil {
		t.Error("opencode's plugin takes no note")
	}
}
