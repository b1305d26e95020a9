package hooks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/coderstream"
)

// toolReport describes a finished tool call for the tool lane.
func toolReport(tool string, input toolArgs, response string) wire.Report {
	rep := wire.Report{Lane: "tool", Kind: coderstream.ToolResult, Tool: tool}
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
func toolFailureReport(tool string, input toolArgs, errRaw json.RawMessage) wire.Report {
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
