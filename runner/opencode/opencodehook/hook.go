package opencodehook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// HookName is the name opencode's hook goes by: `sentinel hook opencode`.
const HookName = "opencode"

// HookDialect is opencode's hook language: what Sentinel's plugin
// (plugin.js) sends — the shared payload shape, with opencode's own tool
// names and arguments in it — answered {"decision": "allow"|"deny",
// "reason": …} (hooks.DecisionReason), which the plugin turns into a tool
// call that runs or one that fails with the reason.
var HookDialect hooks.Dialect = dialect{}

type dialect struct{}

func (dialect) Name() string { return HookName }

func (dialect) Parse(payload []byte) (hooks.Event, error) {
	shared, args, err := sharedPayload(payload)
	if err != nil {
		return hooks.Event{}, err
	}
	ev, err := hooks.Read(HookName, shared)
	if err != nil {
		return hooks.Event{}, err
	}
	if ev.Request != nil && args != nil {
		// The person sees the arguments opencode will run the tool with.
		ev.Request.Input = args
	}
	return ev, nil
}

func (dialect) Answer(ev hooks.Event, d wire.Decision) hooks.Answer {
	return decisionReason.Answer(ev, d)
}

func (dialect) Note(hooks.Event, string) []byte { return nil }

var decisionReason = hooks.DecisionReason(HookName)

// payload is what plugin.js sends: the shared hook fields, tool_input
// being opencode's own arguments for the tool.
type payload struct {
	Event    string          `json:"hook_event_name"`
	Tool     string          `json:"tool_name"`
	Input    json.RawMessage `json:"tool_input"`
	Response json.RawMessage `json:"tool_response"`
	Cwd      string          `json:"cwd"`
	CallID   string          `json:"tool_use_id"`
	Error    json.RawMessage `json:"error"`
	Details  string          `json:"error_details"`
}

// toolNames maps opencode's (1.18) tool names to the shared names whose
// kind the shared reader knows (runner/hooks): its bookkeeping tools to
// Claude Code's names, which the policy knows as the agent's own; its
// directory listing to ls; its patch tools to apply_patch, whose patch
// names the file. Any other name is kept (bash, read, write, edit,
// multiedit, glob, grep, webfetch, websearch are shared already; the rest,
// MCP tools included, are kind other, which the policy sends to a person).
var toolNames = map[string]string{
	"todowrite": "TodoWrite", "todoread": "TodoRead", "task": "Task",
	"list": "ls", "patch": "apply_patch",
}

// sharedPayload rewrites plugin.js's payload into the shared shape the
// shared reader judges: the tool's name as above, and of its arguments only
// the ones opencode itself acts on, under the shared names (filePath →
// file_path, patchText → patch; a relative path or workdir resolved against
// the directory opencode runs in, as opencode resolves it). An argument
// opencode ignores never reaches the policy, so a model cannot add a cwd
// or a file_path the policy would judge in place of what runs. It also
// returns opencode's own arguments, for the person to see.
func sharedPayload(data []byte) ([]byte, json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, nil, errors.New("empty hook payload on stdin")
	}
	var p payload
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		return nil, nil, fmt.Errorf("hook payload is not JSON: %w", err)
	}
	if dec.More() {
		return nil, nil, errors.New("hook payload has trailing data after the JSON object")
	}
	if p.Event == "" {
		return nil, nil, errors.New("hook payload names no hook_event_name")
	}
	if p.Cwd != "" && !filepath.IsAbs(p.Cwd) {
		return nil, nil, fmt.Errorf("hook payload's cwd %q is not an absolute path", p.Cwd)
	}
	out := map[string]any{"hook_event_name": p.Event, "cwd": p.Cwd, "tool_use_id": p.CallID}
	var args json.RawMessage
	if p.Tool != "" {
		name := p.Tool
		if n, ok := toolNames[name]; ok {
			name = n
		}
		out["tool_name"] = name
		in, err := sharedInput(p.Tool, p.Input, p.Cwd)
		if err != nil {
			return nil, nil, err
		}
		out["tool_input"] = in
		if len(p.Input) > 0 && string(p.Input) != "null" {
			args = p.Input
		}
	}
	if len(p.Response) > 0 {
		out["tool_response"] = sharedResponse(p.Response)
	}
	if len(p.Error) > 0 {
		out["error"] = p.Error
	}
	if p.Details != "" {
		out["error_details"] = p.Details
	}
	b, err := json.Marshal(out)
	return b, args, err
}

// args are the arguments of opencode's tools that say what a call acts on.
type args struct {
	Command   json.RawMessage `json:"command"`
	Workdir   string          `json:"workdir"`
	FilePath  string          `json:"filePath"`
	Path      string          `json:"path"`
	URL       string          `json:"url"`
	Query     string          `json:"query"`
	PatchText string          `json:"patchText"`
}

// sharedInput is opencode's arguments for tool as the shared reader's
// tool_input: only what opencode acts on, relative paths resolved against
// cwd. The arguments of a tool it does not know are passed as they are.
func sharedInput(tool string, raw json.RawMessage, cwd string) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	var a args
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("tool_input of %s is not a JSON object of opencode's arguments: %w", tool, err)
	}
	abs := func(p string) string {
		if p == "" || filepath.IsAbs(p) || cwd == "" {
			return p
		}
		return filepath.Join(cwd, p)
	}
	switch tool {
	case "bash":
		if len(a.Command) == 0 || string(a.Command) == "null" {
			return nil, errors.New("bash: no command in tool_input")
		}
		in := map[string]any{"command": a.Command}
		if a.Workdir != "" {
			in["workdir"] = abs(a.Workdir)
		}
		return in, nil
	case "read", "write", "edit", "multiedit":
		return map[string]any{"file_path": abs(a.FilePath)}, nil
	case "glob", "grep", "list":
		return map[string]any{"path": abs(a.Path)}, nil
	case "webfetch":
		return map[string]any{"url": a.URL}, nil
	case "websearch":
		return map[string]any{"query": a.Query}, nil
	case "apply_patch", "patch":
		return map[string]any{"patch": a.PatchText}, nil
	}
	return raw, nil
}

// sharedResponse is opencode's tool result ({title, metadata, output}) as a
// shared tool_response: a shell command's exit status (metadata.exit) as
// exit_code, so the journal says how it ended.
func sharedResponse(raw json.RawMessage) json.RawMessage {
	var r struct {
		Metadata struct {
			Exit *int `json:"exit"`
		} `json:"metadata"`
	}
	if json.Unmarshal(raw, &r) != nil || r.Metadata.Exit == nil {
		return raw
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	m["exit_code"] = *r.Metadata.Exit
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}
