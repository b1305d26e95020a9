package hooks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/flatjson"
)

// toolReport describes a finished tool call for the tool lane; response
// is the payload's tool_response (or tool_output).
func toolReport(tool string, input, response member) wire.Report {
	rep := wire.Report{Lane: "tool", Kind: coderstream.ToolResult, Tool: tool}
	req, _ := toolRequest(tool, input, "")
	what := req.Summary()
	out := readOutcome(response)
	rep.ExitCode = out.exitCode
	rep.Failed = out.failed || (rep.ExitCode != nil && *rep.ExitCode != 0)
	rep.Text = tool
	if what != "" {
		rep.Text += ": " + what
	}
	switch {
	case rep.ExitCode != nil:
		rep.Text += fmt.Sprintf(" → exit %d", *rep.ExitCode)
	case out.interrupted:
		rep.Text += " → interrupted"
	case rep.Failed:
		rep.Text += " → failed"
	}
	const keep = 64 << 10
	if raw := response.raw(); len(raw) > keep {
		rep.Data, _ = new(flatjson.Writer).Open().String("head", string(raw[:keep])).Bool("truncated", true).Close().Bytes()
	} else if raw != nil {
		rep.Data = raw // valid JSON: the payload was validated whole
	}
	return rep
}

// outcome is what a tool response says of how its call ended.
type outcome struct {
	exitCode            *int
	interrupted, failed bool
}

// readOutcome reads a tool response's exit code (the first of exit_code,
// exitCode and returncode given) and its flags, as encoding/json reads
// them into fields of those names (*int, bool, *bool): a member of another
// type reads as zero, and a response that is not an object says nothing —
// a report never blocks the agent. Its other members (a command's output)
// are not read.
func readOutcome(response member) outcome {
	var o outcome
	r, err := response.of.Object(response.name)
	if err != nil || r == nil {
		return o
	}
	given := func(name string) bool { raw := r.Raw(name); return raw != nil && string(raw) != "null" }
	for _, name := range []string{"exit_code", "exitCode", "returncode"} {
		if given(name) {
			n, _ := r.Int(name)
			c := int(n)
			o.exitCode = &c
			break
		}
	}
	flag := func(name string) bool { b, _ := r.Bool(name); return b }
	o.interrupted = flag("interrupted")
	o.failed = flag("is_error") || flag("isError") || (given("success") && !flag("success"))
	return o
}

// toolFailureReport describes a tool call the agent's failure hook
// (Claude Code's PostToolUseFailure) reported: failed, with the agent's error.
func toolFailureReport(tool string, input member, errRaw json.RawMessage) wire.Report {
	rep := wire.Report{Lane: "tool", Kind: coderstream.ToolResult, Tool: tool, Failed: true}
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
