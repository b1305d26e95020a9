package steer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// Kind is what a finding is about; each has a steering message in the
// supervisor's prompts file under [steer].
type Kind string

// The findings.
const (
	KindMaskedExit        Kind = "masked_exit"
	KindSkippedTest       Kind = "skipped_test"
	KindDeletedTest       Kind = "deleted_test"
	KindEditedExpectation Kind = "edited_expectation"
	KindRepeatedFailure   Kind = "repeated_failure"
)

// Finding is one thing the coder should be told about.
type Finding struct {
	Kind   Kind   `json:"kind"`
	Detail string `json:"detail"` // what was seen, quoted for the coder
	Key    string `json:"key"`    // the same Key is reported once
	Seq    int64  `json:"seq"`    // the event it was seen in
}

// DefaultRepeats is how many identical failures in a row make a finding.
const DefaultRepeats = 3

// Detector turns journal events into findings. It is not safe for
// concurrent use; the Watcher serialises it.
type Detector struct {
	// Repeats is how many identical failures of one command make a
	// finding (DefaultRepeats when 0).
	Repeats int

	byCall   map[string]string // tool call id → shell command
	lastCmd  string
	failures map[string]int // command + output → count
	seen     map[string]bool
}

// Detect replays evs through a fresh Detector and returns every finding.
func Detect(evs []journal.Event) []Finding {
	var d Detector
	var out []Finding
	for _, ev := range evs {
		out = append(out, d.Observe(ev)...)
	}
	return out
}

// Observe takes one event and returns the new findings it causes (each Key
// at most once per Detector).
func (d *Detector) Observe(ev journal.Event) []Finding {
	if d.seen == nil {
		d.byCall, d.failures, d.seen = map[string]string{}, map[string]int{}, map[string]bool{}
	}
	var found []Finding
	switch {
	case ev.Is(journal.Approval, approvals.KindRequest):
		req, ok := approvals.AsRequest(ev)
		if !ok {
			return nil
		}
		found = d.request(req.Request)
	case ev.Is(journal.Tool, coderstream.ToolResult) || ev.Is(journal.Tool, coderstream.Result):
		found = d.result(ev)
	}
	var out []Finding
	for _, f := range found {
		if d.seen[f.Key] {
			continue
		}
		d.seen[f.Key] = true
		f.Seq = ev.Seq
		out = append(out, f)
	}
	return out
}

func (d *Detector) request(req approvals.Request) []Finding {
	var out []Finding
	switch req.Kind {
	case policy.KindShell:
		cmd := req.Command
		d.lastCmd = cmd
		if req.ToolCallID != "" {
			d.byCall[req.ToolCallID] = cmd
		}
		if m, ok := MaskedExit(cmd); ok {
			out = append(out, Finding{Kind: KindMaskedExit, Detail: "`" + clip(m, 160) + "`", Key: "mask:" + m})
		}
		for _, f := range DeletedTests(cmd) {
			out = append(out, Finding{Kind: KindDeletedTest, Detail: "`" + clip(cmd, 120) + "` deletes the test file " + f, Key: "rm:" + f})
		}
		if m, ok := UpdatesExpectations(cmd); ok {
			out = append(out, Finding{Kind: KindEditedExpectation, Detail: "`" + clip(m, 120) + "` rewrites the recorded expectations (golden files or snapshots)", Key: "update:" + m})
		}
	case policy.KindWrite, policy.KindEdit:
		for _, e := range EditsOf(req.Path, req.Input) {
			if m, ok := SkippedTest(e); ok {
				out = append(out, Finding{Kind: KindSkippedTest, Detail: m, Key: "skip:" + e.Path + ":" + m})
			}
			if m, ok := RemovedTests(e); ok {
				out = append(out, Finding{Kind: KindDeletedTest, Detail: m, Key: "rmtest:" + m})
			}
			if m, ok := EditedExpectation(e); ok {
				out = append(out, Finding{Kind: KindEditedExpectation, Detail: m, Key: "expect:" + m})
			}
		}
	}
	return out
}

// result counts a failing tool result against the command that produced
// it; the same command failing the same way Repeats times is a finding.
func (d *Detector) result(ev journal.Event) []Finding {
	text := strings.TrimSpace(ev.Text)
	if _, failed := approvals.ToolOutcome(ev); !failed {
		return nil
	}
	cmd := d.lastCmd
	if id := toolUseID(ev.Data); id != "" && d.byCall[id] != "" {
		cmd = d.byCall[id]
	}
	if cmd == "" {
		return nil
	}
	key := cmd + "\x00" + text
	d.failures[key]++
	n := d.Repeats
	if n <= 0 {
		n = DefaultRepeats
	}
	if d.failures[key] < n {
		return nil
	}
	return []Finding{{Kind: KindRepeatedFailure, Key: "repeat:" + key,
		Detail: fmt.Sprintf("`%s` has failed %d times with the same error (%s)", clip(cmd, 100), d.failures[key], clip(strings.TrimPrefix(text, "error:"), 100))}}
}

// toolUseID finds the tool_use_id of a tool result in a Claude stream line
// ({"message":{"content":[{"type":"tool_result","tool_use_id":…}]}}) or a
// flat {"tool_use_id"|"tool_call_id": …}.
func toolUseID(raw json.RawMessage) string {
	var v struct {
		ToolUseID  string `json:"tool_use_id"`
		ToolCallID string `json:"tool_call_id"`
		Message    struct {
			Content []struct {
				ToolUseID string `json:"tool_use_id"`
			} `json:"content"`
		} `json:"message"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch {
	case v.ToolUseID != "":
		return v.ToolUseID
	case v.ToolCallID != "":
		return v.ToolCallID
	}
	for _, c := range v.Message.Content {
		if c.ToolUseID != "" {
			return c.ToolUseID
		}
	}
	return ""
}
