package codex

import (
	"encoding/json"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// MethodElicitation is how Codex (0.171.0) asks before an MCP tool call:
// an MCP elicitation whose _meta.codex_approval_kind is "mcp_tool_call",
// naming the server, the tool and its arguments. The answer is
// {"action":"accept"} or {"action":"decline"}; Sentinel never answers with
// _meta.persist, which would have Codex remember the tool (in its config
// for "always").
const MethodElicitation = "mcpServer/elicitation/request"

type mcpApprovalParams struct {
	ServerName string `json:"serverName"`
	TurnID     string `json:"turnId"`
	Meta       struct {
		Kind   string          `json:"codex_approval_kind"`
		Tool   string          `json:"tool_name"`
		Params json.RawMessage `json:"tool_params"`
	} `json:"_meta"`
}

func isMCPToolApproval(params json.RawMessage) bool {
	var p mcpApprovalParams
	return json.Unmarshal(params, &p) == nil && p.Meta.Kind == "mcp_tool_call"
}

// mcpRequest is the broker request for an MCP tool call approval: kind mcp,
// the tool named mcp__<server>__<tool> as the policy's rules spell it.
func (s *Session) mcpRequest(params json.RawMessage) (approvals.Request, string) {
	var p mcpApprovalParams
	if err := json.Unmarshal(params, &p); err != nil {
		return approvals.Request{}, "unreadable MCP tool approval: " + err.Error()
	}
	if strings.TrimSpace(p.ServerName) == "" || strings.TrimSpace(p.Meta.Tool) == "" {
		return approvals.Request{}, "the MCP tool approval names no server or tool"
	}
	input := p.Meta.Params
	if len(input) == 0 {
		input = jsonOrNil(params)
	}
	return approvals.Request{Adapter: "codex", Kind: policy.KindMCP, Tool: "mcp__" + p.ServerName + "__" + p.Meta.Tool,
		Input: input, Cwd: s.cfg.Workspace}, ""
}

// handleMCPApproval answers one MCP tool call approval through the broker.
func (s *Session) handleMCPApproval(m message) {
	req, bad := s.mcpRequest(m.Params)
	var d approvals.Decision
	var reqs []approvals.Request
	if bad != "" {
		d = approvals.Decision{Outcome: approvals.OutcomeDeny, By: "error", Reason: bad}
		s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: declined " + m.Method + ": " + bad, Data: jsonOrNil(m.Params)})
	} else {
		reqs = []approvals.Request{req}
		d = s.decide(s.ctx, reqs)
	}
	action := "accept"
	if !d.Allowed() {
		s.tellDenied(s.ctx, m, reqs, d)
		action = "decline"
	}
	if err := s.rpc.reply(m.ID, map[string]any{"action": action}); err != nil {
		s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: could not answer " + m.Method + ": " + err.Error()})
	}
}
