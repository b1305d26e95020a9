package fakeresponses

import (
	"encoding/json"
	"fmt"
	"net/http"
)

type sseEvent struct {
	name string
	data map[string]any
}

// turnEvents is the SSE event sequence answering one request with turn:
// response.created, then per item output_item.added, (text deltas),
// output_item.done, and response.completed holding every item.
func turnEvents(n int, model string, t Turn) ([]sseEvent, error) {
	respID := fmt.Sprintf("resp_fake_%d", n)
	if model == "" {
		model = "fake-model"
	}
	resp := func(status string, output []any) map[string]any {
		r := map[string]any{"id": respID, "object": "response", "created_at": 0, "status": status,
			"model": model, "output": output}
		if status == "completed" {
			r["usage"] = map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
		}
		return r
	}
	evs := []sseEvent{{"response.created", map[string]any{"type": "response.created", "response": resp("in_progress", []any{})}}}
	var done []any
	for i, it := range t.Items {
		var added, final map[string]any
		var deltas []sseEvent
		switch {
		case it.Custom:
			callID := it.CallID
			if callID == "" {
				callID = fmt.Sprintf("call_fake_%d_%d", n, i)
			}
			base := map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_fake_%d_%d", n, i), "call_id": callID, "name": it.Name}
			added = with(base, "status", "in_progress", "input", "")
			final = with(base, "status", "completed", "input", it.Input)
		case it.IsCall():
			callID := it.CallID
			if callID == "" {
				callID = fmt.Sprintf("call_fake_%d_%d", n, i)
			}
			args, err := it.argumentsJSON()
			if err != nil {
				return nil, fmt.Errorf("fakeresponses: arguments of %s: %w", it.Name, err)
			}
			base := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_fake_%d_%d", n, i), "call_id": callID, "name": it.Name}
			if it.Namespace != "" {
				base["namespace"] = it.Namespace
			}
			added = with(base, "status", "in_progress", "arguments", "")
			final = with(base, "status", "completed", "arguments", args)
		default:
			itemID := fmt.Sprintf("msg_fake_%d_%d", n, i)
			base := map[string]any{"type": "message", "id": itemID, "role": "assistant"}
			added = with(base, "status", "in_progress", "content", []any{})
			final = with(base, "status", "completed", "content",
				[]any{map[string]any{"type": "output_text", "text": it.Text, "annotations": []any{}}})
			deltas = append(deltas,
				sseEvent{"response.content_part.added", map[string]any{"type": "response.content_part.added", "item_id": itemID,
					"output_index": i, "content_index": 0, "part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}}},
				sseEvent{"response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": itemID,
					"output_index": i, "content_index": 0, "delta": it.Text}},
				sseEvent{"response.output_text.done", map[string]any{"type": "response.output_text.done", "item_id": itemID,
					"output_index": i, "content_index": 0, "text": it.Text}},
			)
		}
		evs = append(evs, sseEvent{"response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": added}})
		evs = append(evs, deltas...)
		evs = append(evs, sseEvent{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": final}})
		done = append(done, final)
	}
	evs = append(evs, sseEvent{"response.completed", map[string]any{"type": "response.completed", "response": resp("completed", done)}})
	return evs, nil
}

func with(base map[string]any, kv ...any) map[string]any {
	m := make(map[string]any, len(base)+len(kv)/2)
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func writeStream(w http.ResponseWriter, evs []sseEvent) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	for i, ev := range evs {
		ev.data["sequence_number"] = i
		b, _ := json.Marshal(ev.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, b)
		if fl != nil {
			fl.Flush()
		}
	}
}
