package codex

import (
	"encoding/json"
	"strings"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// toolItems are the app-server items that are the coder's tool calls: what
// Sentinel refused while one ran (a host the sandbox's proxy turned away)
// belongs with its result.
var toolItems = map[string]bool{"commandExecution": true, "mcpToolCall": true, "dynamicToolCall": true}

// NotePrefix starts every note steered to the model, so it reads as
// Sentinel's words beside the tool's own output.
const NotePrefix = "Sentinel (about the tool call that just ran): "

// noteAfterTool steers Config.Notes' pending lines to the model when a tool
// item completes. Codex's app-server has no field for a note on a tool's
// result (its hooks do, but `sentinel run` turns them off), so the note is
// a turn/steer message, which Codex takes in with that result at its next
// model request. The call runs off the read loop (it waits for an answer
// the read loop delivers).
func (s *Session) noteAfterTool(method string, params json.RawMessage) {
	if method != "item/completed" || s.cfg.Notes == nil {
		return
	}
	var p struct {
		Item item `json:"item"`
	}
	if json.Unmarshal(params, &p) != nil || !toolItems[p.Item.Type] {
		return
	}
	note := strings.TrimSpace(s.cfg.Notes())
	if note == "" {
		return
	}
	s.mu.Lock()
	turn := s.turnID
	s.mu.Unlock()
	go func() {
		if err := s.steerTurn(s.ctx, turn, NotePrefix+note); err != nil {
			s.emit(Line{Lane: journal.System, Kind: coderstream.Warning, Text: "codex: could not pass Sentinel's note to the model: " + err.Error()})
		}
	}()
}
