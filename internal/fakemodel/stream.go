package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// wireMessage is a complete assistant message (the non-streamed answer).
type wireMessage struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []map[string]any `json:"content"`
	StopReason   string           `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	Usage        map[string]int   `json:"usage"`
	inputs       []string         // each block's input JSON, for input_json_delta
}

func (s *Server) message(model string, t Turn) (*wireMessage, error) {
	id := s.NextID()
	if model == "" {
		model = "claude-fake"
	}
	m := &wireMessage{ID: fmt.Sprintf("msg_fake%04d", id), Type: "message", Role: "assistant", Model: model,
		StopReason: t.StopReason(), Usage: map[string]int{"input_tokens": 10, "output_tokens": 5}}
	for i, b := range t.Blocks {
		if !b.IsTool() {
			m.Content = append(m.Content, map[string]any{"type": "text", "text": b.Text})
			m.inputs = append(m.inputs, "")
			continue
		}
		in, err := b.inputJSON()
		if err != nil {
			return nil, fmt.Errorf("fakemodel: tool %s input: %w", b.ToolName, err)
		}
		tid := b.ToolID
		if tid == "" {
			tid = fmt.Sprintf("toolu_fake%04d_%d", id, i)
		}
		m.Content = append(m.Content, map[string]any{"type": "tool_use", "id": tid, "name": b.ToolName, "input": json.RawMessage(in)})
		m.inputs = append(m.inputs, in)
	}
	if m.Content == nil {
		m.Content = []map[string]any{}
	}
	return m, nil
}

// writeStream sends m as the Messages API's server-sent events.
func writeStream(w http.ResponseWriter, m *wireMessage) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("request-id", "req_fake")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	event := func(name string, v any) {
		raw, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, raw)
		if flusher != nil {
			flusher.Flush()
		}
	}
	start := map[string]any{"id": m.ID, "type": "message", "role": "assistant", "model": m.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": m.Usage["input_tokens"], "output_tokens": 1}}
	event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, c := range m.Content {
		switch c["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		case "tool_use":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			in := m.inputs[i]
			// Split the input in two, as a real stream would deliver it.
			half := len(in) / 2
			for half > 0 && !utf8.RuneStart(in[half]) {
				half--
			}
			for _, part := range []string{in[:half], in[half:]} {
				event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": m.StopReason, "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": m.Usage["output_tokens"]}})
	event("message_stop", map[string]any{"type": "message_stop"})
}
