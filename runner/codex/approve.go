package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// Asker is where approval requests go: an *approvals.Client (the broker
// over its socket) or anything that answers the same way. Every error is
// treated as a deny.
type Asker interface {
	Ask(ctx context.Context, req approvals.Request) (approvals.Decision, error)
}

// AskerFunc adapts an in-process decision function to Asker, for a runner
// that holds the broker itself: codex.AskerFunc(broker.Decide).
type AskerFunc func(ctx context.Context, req approvals.Request) approvals.Decision

// Ask calls f; it never fails (f's deny carries its own reason).
func (f AskerFunc) Ask(ctx context.Context, req approvals.Request) (approvals.Decision, error) {
	return f(ctx, req), nil
}

// The app-server's server-to-client requests this client answers.
const (
	MethodCommandApproval    = "item/commandExecution/requestApproval"
	MethodFileChangeApproval = "item/fileChange/requestApproval"
	MethodExecApprovalV1     = "execCommandApproval"
	MethodPatchApprovalV1    = "applyPatchApproval"
)

type commandApprovalParams struct {
	ItemID                 string  `json:"itemId"`
	TurnID                 string  `json:"turnId"`
	Command                *string `json:"command"`
	Cwd                    *string `json:"cwd"`
	Kind                   string  `json:"kind"`
	Reason                 *string `json:"reason"`
	NetworkApprovalContext *struct {
		Host     string `json:"host"`
		Protocol string `json:"protocol"`
	} `json:"networkApprovalContext"`
}

type fileChangeApprovalParams struct {
	ItemID    string  `json:"itemId"`
	TurnID    string  `json:"turnId"`
	GrantRoot *string `json:"grantRoot"`
	Reason    *string `json:"reason"`
}

type execApprovalV1Params struct {
	CallID  string   `json:"callId"`
	Command []string `json:"command"`
	Cwd     string   `json:"cwd"`
}

type patchApprovalV1Params struct {
	CallID      string `json:"callId"`
	FileChanges map[string]struct {
		Type     string  `json:"type"`
		MovePath *string `json:"move_path"`
	} `json:"fileChanges"`
	GrantRoot *string `json:"grantRoot"`
}

// requestsFor turns one approval request from Codex into the broker
// requests that must all be allowed for it to proceed. An empty list with a
// non-empty reason means it cannot be judged and is declined.
func (s *Session) requestsFor(method string, params json.RawMessage) ([]approvals.Request, string) {
	base := approvals.Request{Adapter: "codex", Input: jsonOrNil(params)}
	switch method {
	case MethodCommandApproval:
		var p commandApprovalParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, "unreadable command approval: " + err.Error()
		}
		base.ToolCallID = p.ItemID
		base.Cwd = s.cfg.Workspace
		if p.Cwd != nil && *p.Cwd != "" {
			base.Cwd = *p.Cwd
		}
		if n := p.NetworkApprovalContext; n != nil && n.Host != "" {
			base.Kind, base.Host = policy.KindNet, n.Host
			return []approvals.Request{base}, ""
		}
		if p.Command == nil || strings.TrimSpace(*p.Command) == "" {
			return nil, "the command approval names no command"
		}
		base.Kind = policy.KindShell
		base.Command, _ = UnwrapShell(*p.Command)
		if p.Kind == "writeStdin" {
			base.Tool = "write_stdin"
		}
		return []approvals.Request{base}, ""
	case MethodExecApprovalV1:
		var p execApprovalV1Params
		if err := json.Unmarshal(params, &p); err != nil || len(p.Command) == 0 {
			return nil, "unreadable command approval"
		}
		base.Kind, base.Cwd, base.ToolCallID = policy.KindShell, p.Cwd, p.CallID
		base.Command, _ = UnwrapShell(shellJoin(p.Command))
		return []approvals.Request{base}, ""
	case MethodFileChangeApproval:
		var p fileChangeApprovalParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, "unreadable file change approval: " + err.Error()
		}
		s.mu.Lock()
		changes, ok := s.changes[p.ItemID]
		s.mu.Unlock()
		if !ok || len(changes) == 0 {
			return nil, "the file change approval names no known change (item " + p.ItemID + ")"
		}
		var out []approvals.Request
		for _, c := range changes {
			r := base
			r.ToolCallID, r.Cwd = p.ItemID, s.cfg.Workspace
			r.Kind, r.Path = policy.KindEdit, s.abs(c.Path)
			if c.Kind.Type == "add" {
				r.Kind = policy.KindWrite
			}
			out = append(out, r)
			if c.Kind.MovePath != nil && *c.Kind.MovePath != "" {
				m := r
				m.Kind, m.Path = policy.KindWrite, s.abs(*c.Kind.MovePath)
				out = append(out, m)
			}
		}
		if p.GrantRoot != nil && *p.GrantRoot != "" {
			r := base
			r.Kind, r.Path, r.ToolCallID = policy.KindWrite, s.abs(*p.GrantRoot), p.ItemID
			out = append(out, r)
		}
		return out, ""
	case MethodPatchApprovalV1:
		var p patchApprovalV1Params
		if err := json.Unmarshal(params, &p); err != nil || len(p.FileChanges) == 0 {
			return nil, "unreadable patch approval"
		}
		var out []approvals.Request
		for path, c := range p.FileChanges {
			r := base
			r.ToolCallID, r.Cwd = p.CallID, s.cfg.Workspace
			r.Kind, r.Path = policy.KindEdit, s.abs(path)
			if c.Type == "add" {
				r.Kind = policy.KindWrite
			}
			out = append(out, r)
			if c.MovePath != nil && *c.MovePath != "" {
				m := r
				m.Kind, m.Path = policy.KindWrite, s.abs(*c.MovePath)
				out = append(out, m)
			}
		}
		if p.GrantRoot != nil && *p.GrantRoot != "" {
			r := base
			r.Kind, r.Path, r.ToolCallID = policy.KindWrite, s.abs(*p.GrantRoot), p.CallID
			out = append(out, r)
		}
		return out, ""
	}
	return nil, "unknown approval " + method
}

func (s *Session) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.cfg.Workspace, p)
}

// decide asks the broker for every request; all must be allowed. The first
// deny ends it. Remember counts only when every allow was remembered.
func (s *Session) decide(ctx context.Context, reqs []approvals.Request) approvals.Decision {
	var last approvals.Decision
	remember := true
	for _, r := range reqs {
		d, err := s.cfg.Asker.Ask(ctx, r)
		if err != nil && d.Outcome == approvals.OutcomeAllow {
			d = approvals.Decision{Outcome: approvals.OutcomeDeny, By: "error", Reason: err.Error()}
		}
		if !d.Allowed() {
			return d
		}
		// A grant bound to a script's content stays Sentinel's to check:
		// Codex's own session grant would skip it after a rewrite.
		remember = remember && d.Remember && !(r.Kind == policy.KindShell && approvals.RunsWorkspaceScript(r.Command))
		last = d
	}
	last.Remember = remember
	return last
}

// handleApproval answers one approval request from Codex through the
// broker. It runs on its own goroutine: a person may take minutes.
func (s *Session) handleApproval(m message) {
	ctx := s.ctx
	reqs, bad := s.requestsFor(m.Method, m.Params)
	var d approvals.Decision
	if len(reqs) == 0 {
		d = approvals.Decision{Outcome: approvals.OutcomeDeny, By: "error", Reason: bad}
		s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: declined " + m.Method + ": " + bad, Data: jsonOrNil(m.Params)})
	} else {
		d = s.decide(ctx, reqs)
	}
	if !d.Allowed() {
		// The decline answer has no field for a reason: the reason reaches
		// the model as a steering message queued before the decline, so
		// the request that carries the declined call's output carries it too.
		s.tellDenied(ctx, m, reqs, d)
	}
	var answer any
	v1 := m.Method == MethodExecApprovalV1 || m.Method == MethodPatchApprovalV1
	switch {
	case d.Allowed() && d.Remember:
		answer = pick(v1, "approved_for_session", "acceptForSession")
	case d.Allowed():
		answer = pick(v1, "approved", "accept")
	default:
		answer = pick(v1, "denied", "decline")
	}
	if err := s.rpc.reply(m.ID, map[string]any{"decision": answer}); err != nil {
		s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: could not answer " + m.Method + ": " + err.Error()})
	}
}

func pick(v1 bool, a, b string) string {
	if v1 {
		return a
	}
	return b
}

// DeniedMessage is the text the model is told when Sentinel declines one of
// its actions.
func DeniedMessage(reqs []approvals.Request, d approvals.Decision) string {
	what := "that action"
	if len(reqs) > 0 {
		switch r := reqs[0]; r.Kind {
		case policy.KindShell:
			what = "the command `" + r.Command + "`"
		case policy.KindNet:
			what = "network access to " + r.Host
		case policy.KindMCP:
			what = "the MCP tool call " + r.Tool
		default:
			what = "the change to " + r.Path
		}
	}
	why := d.Message
	if why == "" {
		why = d.Reason
	}
	if why == "" {
		why = "no reason given"
	}
	return fmt.Sprintf("Sentinel (the person supervising this session) denied %s: %s. It did not run. Do not retry it; choose another way or explain why it is needed.", what, why)
}

func (s *Session) tellDenied(ctx context.Context, m message, reqs []approvals.Request, d approvals.Decision) {
	text := DeniedMessage(reqs, d)
	var turnID struct {
		TurnID string `json:"turnId"`
	}
	_ = json.Unmarshal(m.Params, &turnID)
	if err := s.steerTurn(ctx, turnID.TurnID, text); err != nil {
		s.emit(Line{Lane: journal.System, Kind: coderstream.ApprovalError, Text: "codex: the deny reason could not be sent to the model: " + err.Error()})
	}
}

// shellJoin quotes argv for display and for the policy's shell parser.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '=' || r == ':' || r == ',' || r == '+' || r == '@' ||
				r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
