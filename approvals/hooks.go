package approvals

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/policy"
)

// Hook adapters: the agents whose hook payloads `sentinel hook` reads.
const (
	HookClaude = "claude" // Claude Code: PreToolUse / PermissionRequest / PostToolUse / Stop / Notification
	HookCodex  = "codex"  // Codex: Claude-shaped hooks
	HookGemini = "gemini" // Gemini CLI: BeforeTool / AfterTool / Notification
	HookCrush  = "crush"  // Crush: PreToolUse (Claude-compatible input, {"decision"} output)
)

// EnvHookTimeout optionally tells `sentinel hook` how long to wait for a
// decision (a Go duration like "9m30s"). Set it below the agent's own hook
// timeout: an agent lets a timed-out hook's call proceed, so the hook must
// deny first.
const EnvHookTimeout = "SENTINEL_HOOK_TIMEOUT"

// HookEvent is one hook invocation read from an agent's payload: either a
// request that needs a decision, or a report to journal.
type HookEvent struct {
	Adapter string
	Name    string   // the agent's event name, e.g. PreToolUse
	Request *Request // set when the event needs a decision
	Report  *Report  // set when it only informs
}

// hookPayload holds the fields the agents send; names vary by agent.
type hookPayload struct {
	Event      string          `json:"hook_event_name"`
	EventAlt   string          `json:"event"`
	Tool       string          `json:"tool_name"`
	ToolAlt    string          `json:"tool"`
	Input      json.RawMessage `json:"tool_input"`
	InputAlt   json.RawMessage `json:"input"`
	Response   json.RawMessage `json:"tool_response"`
	Output     json.RawMessage `json:"tool_output"`
	Cwd        string          `json:"cwd"`
	ToolUseID  string          `json:"tool_use_id"`
	CallID     string          `json:"call_id"`
	Message    string          `json:"message"`
	StopReason string          `json:"stop_reason"`
	Error      json.RawMessage `json:"error"`                  // PostToolUseFailure: why the call failed; StopFailure: the API error's type
	Details    string          `json:"error_details"`          // StopFailure: the API error's words
	LastWords  string          `json:"last_assistant_message"` // StopFailure: what the agent showed last (its error message)
}

// ParseHook reads one hook payload of adapter. Anything it cannot read is
// an error; the caller denies.
func ParseHook(adapter string, payload []byte) (HookEvent, error) {
	switch adapter {
	case HookClaude, HookCodex, HookGemini, HookCrush:
	default:
		return HookEvent{}, fmt.Errorf("unknown hook adapter %q (want claude, codex, gemini or crush)", adapter)
	}
	payload = bytes.TrimSpace(payload)
	if len(payload) == 0 {
		return HookEvent{}, errors.New("empty hook payload on stdin")
	}
	var p hookPayload
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&p); err != nil {
		return HookEvent{}, fmt.Errorf("hook payload is not JSON: %w", err)
	}
	if dec.More() {
		return HookEvent{}, errors.New("hook payload has trailing data after the JSON object")
	}
	name := first(p.Event, p.EventAlt)
	tool := first(p.Tool, p.ToolAlt)
	input := p.Input
	if len(input) == 0 {
		input = p.InputAlt
	}
	ev := HookEvent{Adapter: adapter, Name: name}
	callID := first(p.ToolUseID, p.CallID)
	switch normEvent(name) {
	case "pretooluse", "beforetool", "permissionrequest", "":
		if tool == "" {
			return HookEvent{}, fmt.Errorf("hook event %q names no tool", name)
		}
		req, err := toolRequest(tool, input, p.Cwd)
		if err != nil {
			return HookEvent{}, err
		}
		req.Adapter, req.ToolCallID = adapter, callID
		ev.Request = &req
	case "posttooluse", "aftertool":
		rep := toolReport(tool, input, first(string(p.Response), string(p.Output)))
		rep.Adapter, rep.ToolCallID = adapter, callID
		ev.Report = &rep
	case "posttoolusefailure":
		rep := toolFailureReport(tool, input, p.Error)
		rep.Adapter, rep.ToolCallID = adapter, callID
		ev.Report = &rep
	case "stopfailure":
		// Claude Code's turn ended on an API error instead of a Stop: the
		// coder never reached its model (or lost it). The text is the
		// agent's own error, for the run's failure (runner.CoderFailed).
		ev.Report = &Report{Lane: "coder", Kind: coderstream.CoderStopFailure, Text: "StopFailure: " + errorWords(p.Error, first(p.Details, p.LastWords)),
			Adapter: adapter, Data: json.RawMessage(payload)}
	default:
		text := first(p.Message, p.StopReason, name)
		kind := coderstream.Hook // any other hook event: its name leads the text
		switch normEvent(name) {
		case "stop", "subagentstop", "afteragent", "sessionend":
			kind = coderstream.CoderStop
		case "notification":
			kind = coderstream.Notification
		}
		if kind != coderstream.Notification && text != name {
			text = name + ": " + text
		}
		// the coder's lane: the broker takes reports only on the coder and tool lanes
		ev.Report = &Report{Lane: "coder", Kind: kind, Text: text, Adapter: adapter, Data: json.RawMessage(payload)}
	}
	return ev, nil
}

func normEvent(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}

func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// toolKinds maps the agents' tool names (lower case) to request kinds.
var toolKinds = map[string]policy.Kind{
	// shell
	"bash": policy.KindShell, "shell": policy.KindShell, "exec_command": policy.KindShell,
	"run_shell_command": policy.KindShell, "local_shell": policy.KindShell, "unified_exec": policy.KindShell,
	// write
	"write": policy.KindWrite, "write_file": policy.KindWrite, "create_file": policy.KindWrite,
	// edit
	"edit": policy.KindEdit, "multiedit": policy.KindEdit, "notebookedit": policy.KindEdit,
	"replace": policy.KindEdit, "edit_file": policy.KindEdit, "multi_edit": policy.KindEdit, "apply_patch": policy.KindEdit,
	// read
	"read": policy.KindRead, "glob": policy.KindRead, "grep": policy.KindRead, "ls": policy.KindRead,
	"view": policy.KindRead, "read_file": policy.KindRead, "read_many_files": policy.KindRead,
	"list_directory": policy.KindRead, "search_file_content": policy.KindRead,
	// net
	"webfetch": policy.KindNet, "websearch": policy.KindNet, "web_fetch": policy.KindNet,
	"google_web_search": policy.KindNet, "fetch": policy.KindNet, "download": policy.KindNet,
	"agentic_fetch": policy.KindNet,
}

// toolInput holds the tool_input fields the mapping reads.
type toolInput struct {
	Command   json.RawMessage `json:"command"`
	Cmd       json.RawMessage `json:"cmd"`
	Cwd       string          `json:"cwd"`
	Workdir   string          `json:"workdir"`
	Directory string          `json:"directory"`
	FilePath  string          `json:"file_path"`
	Path      string          `json:"path"`
	AbsPath   string          `json:"absolute_path"`
	Notebook  string          `json:"notebook_path"`
	URL       string          `json:"url"`
	Query     string          `json:"query"`
	Patch     string          `json:"input"`
	PatchAlt  string          `json:"patch"`
}

var patchFile = regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$`)

// toolRequest maps one tool call to a request.
func toolRequest(tool string, raw json.RawMessage, cwd string) (Request, error) {
	req := Request{Tool: tool, Input: raw, Cwd: cwd}
	var in toolInput
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &in); err != nil {
			return Request{}, fmt.Errorf("tool_input of %s is not a JSON object: %w", tool, err)
		}
	}
	lower := strings.ToLower(tool)
	kind, known := toolKinds[lower]
	switch {
	case strings.HasPrefix(tool, "mcp__"):
		req.Kind = policy.KindMCP
		return req, nil
	case !known:
		req.Kind = policy.KindOther
		return req, nil
	}
	req.Kind = kind
	switch kind {
	case policy.KindShell:
		cmd, err := commandText(first(string(in.Command), string(in.Cmd)))
		if err != nil {
			return Request{}, fmt.Errorf("%s: %w", tool, err)
		}
		req.Command = cmd
		if d := first(in.Cwd, in.Workdir, in.Directory); d != "" {
			req.Cwd = d
		}
	case policy.KindWrite, policy.KindEdit, policy.KindRead:
		req.Path = first(in.FilePath, in.Notebook, in.AbsPath, in.Path)
		if lower == "apply_patch" {
			files := patchFile.FindAllStringSubmatch(first(in.Patch, in.PatchAlt), -1)
			if len(files) != 1 {
				// a patch of several files is one request no path template can cover
				req.Kind, req.Path = policy.KindOther, ""
				return req, nil
			}
			req.Path = strings.TrimSpace(files[0][1])
		}
		if req.Path == "" && kind == policy.KindRead {
			req.Path = cwd // Glob / Grep / ls without a path search the working directory
		}
	case policy.KindNet:
		req.URL = in.URL
		if in.URL != "" {
			if u, err := url.Parse(in.URL); err == nil {
				req.Host = u.Hostname()
				// An explicit port is part of what is asked for (policy,
				// templates and the proxy's grant all judge host:port).
				req.Port, _ = strconv.Atoi(u.Port())
			}
		} else {
			req.Host = "web-search" // a search runs on the agent's provider; the person decides
		}
	}
	return req, nil
}

// commandText reads a command given as a string or as an argv array.
func commandText(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("no command in tool_input")
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err == nil {
		return s, nil
	}
	var argv []string
	if err := json.Unmarshal([]byte(raw), &argv); err != nil || len(argv) == 0 {
		return "", errors.New("command is neither a string nor a list of words")
	}
	// ["bash", "-lc", "script"] runs script: judge the script itself, when
	// the policy's reader finds that script there (not in ./bash or
	// /tmp/x/bash, which are not the shell).
	if len(argv) == 3 && (argv[0] == "bash" || argv[0] == "sh" || argv[0] == "zsh" ||
		strings.HasSuffix(argv[0], "/bash") || strings.HasSuffix(argv[0], "/sh")) && (argv[1] == "-lc" || argv[1] == "-c") {
		if script, ok := policy.ShellScript(argv); ok && script == argv[2] {
			return argv[2], nil
		}
	}
	return quoteArgv(argv), nil
}

// toolReport describes a finished tool call for the tool lane.
func toolReport(tool string, input json.RawMessage, response string) Report {
	rep := Report{Lane: "tool", Kind: coderstream.ToolResult, Tool: tool}
	req, _ := toolRequest(tool, input, "")
	what := req.Summary()
	var resp struct {
		ExitCode  *int   `json:"exit_code"`
		ExitCode2 *int   `json:"exitCode"`
		Code      *int   `json:"returncode"`
		Stdout    string `json:"stdout"`
		Stderr    string `json:"stderr"`
		Interrupt bool   `json:"interrupted"`
		IsError   bool   `json:"is_error"`
		IsError2  bool   `json:"isError"`
		Success   *bool  `json:"success"`
	}
	_ = json.Unmarshal([]byte(response), &resp)
	for _, c := range []*int{resp.ExitCode, resp.ExitCode2, resp.Code} {
		if c != nil {
			rep.ExitCode = c
			break
		}
	}
	rep.Failed = resp.IsError || resp.IsError2 || (resp.Success != nil && !*resp.Success) ||
		(rep.ExitCode != nil && *rep.ExitCode != 0)
	rep.Text = tool
	if what != "" {
		rep.Text += ": " + what
	}
	switch {
	case rep.ExitCode != nil:
		rep.Text += fmt.Sprintf(" → exit %d", *rep.ExitCode)
	case resp.Interrupt:
		rep.Text += " → interrupted"
	case rep.Failed:
		rep.Text += " → failed"
	}
	const keep = 64 << 10
	if len(response) > keep {
		response = response[:keep]
		b, _ := json.Marshal(map[string]any{"truncated": true, "head": response})
		rep.Data = b
	} else if json.Valid([]byte(response)) && response != "" {
		rep.Data = json.RawMessage(response)
	}
	return rep
}

// toolFailureReport describes a tool call the agent's failure hook
// (Claude Code's PostToolUseFailure) reported: failed, with the agent's error.
func toolFailureReport(tool string, input, errRaw json.RawMessage) Report {
	rep := Report{Lane: "tool", Kind: coderstream.ToolResult, Tool: tool, Failed: true}
	req, _ := toolRequest(tool, input, "")
	rep.Text = tool
	if what := req.Summary(); what != "" {
		rep.Text += ": " + what
	}
	var msg string
	if json.Unmarshal(errRaw, &msg) != nil {
		msg = strings.TrimSpace(string(errRaw)) // an error given as an object: its JSON
	}
	if first, _, _ := strings.Cut(strings.TrimSpace(msg), "\n"); first != "" {
		rep.Text += " → failed: " + first
	} else {
		rep.Text += " → failed"
	}
	if len(msg) > 64<<10 {
		msg = msg[:64<<10]
	}
	rep.Data, _ = json.Marshal(map[string]any{"error": msg})
	return rep
}

// errorWords is an agent's error as one line: its type (a JSON string, or
// the JSON of whatever else it sent) and its details.
func errorWords(errRaw json.RawMessage, details string) string {
	var typ string
	if json.Unmarshal(errRaw, &typ) != nil {
		typ = strings.TrimSpace(string(errRaw))
	}
	parts := []string{}
	for _, p := range []string{typ, details} {
		if first, _, _ := strings.Cut(strings.TrimSpace(p), "\n"); first != "" {
			parts = append(parts, first)
		}
	}
	if len(parts) == 0 {
		return "an API error ended the turn"
	}
	return strings.Join(parts, ": ")
}

// HookAnswer is what a hook command prints and its exit status.
type HookAnswer struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// FormatHookAnswer writes a decision in the agent's own format. A deny
// also exits 2 with the reason on stderr: every agent treats that as a
// block, even one that does not read the JSON.
func FormatHookAnswer(ev HookEvent, d Decision) HookAnswer {
	allowed := d.Allowed()
	reason := d.Reason
	if !allowed {
		reason = first(d.Message, d.Reason, "Sentinel denied this")
	}
	var out any
	switch ev.Adapter {
	case HookGemini, HookCrush:
		word := "allow"
		if !allowed {
			word = "deny"
		}
		out = map[string]any{"decision": word, "reason": reason}
	default:
		if normEvent(ev.Name) == "permissionrequest" {
			dec := map[string]any{"behavior": "allow"}
			if !allowed {
				dec = map[string]any{"behavior": "deny", "message": reason}
			}
			out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": dec}}
		} else {
			word := "allow"
			if !allowed {
				word = "deny"
			}
			out = map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": "PreToolUse", "permissionDecision": word, "permissionDecisionReason": reason}}
		}
	}
	b, _ := json.Marshal(out)
	a := HookAnswer{Stdout: append(b, '\n')}
	if !allowed {
		a.Exit = 2
		a.Stderr = reason + " [" + d.By + "]"
	}
	return a
}

// HookFailure is the answer for a hook that could not get a decision: a
// deny in the agent's format, exit 2, the reason on stderr.
func HookFailure(adapter, event string, err error) HookAnswer {
	return FormatHookAnswer(HookEvent{Adapter: adapter, Name: event}, denyBy("error", err.Error()))
}
