package fakegemini

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// turnChunks is the turn as GenerateContentResponse chunks: one per item,
// the last carrying finishReason STOP and usageMetadata (the Gemini API
// ends a turn with STOP whether or not it holds function calls).
func turnChunks(model string, t Turn) ([]map[string]any, error) {
	if model == "" {
		model = "fake-model"
	}
	items := t.Items
	if len(items) == 0 {
		items = []Item{Text("")}
	}
	u := t.Usage
	if u == (Usage{}) {
		u = Usage{Prompt: 10, Candidates: 5}
	}
	var chunks []map[string]any
	for i, it := range items {
		part, err := it.part()
		if err != nil {
			return nil, fmt.Errorf("fakegemini: args of %s: %w", it.Name, err)
		}
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "index": 0}
		chunk := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": "fake"}
		if i == len(items)-1 {
			cand["finishReason"] = "STOP"
			chunk["usageMetadata"] = map[string]any{"promptTokenCount": u.Prompt,
				"candidatesTokenCount": u.Candidates, "totalTokenCount": u.Prompt + u.Candidates}
		}
		chunks = append(chunks, chunk)
	}
	return chunks, nil
}

// merged is the chunks as one GenerateContentResponse (a generateContent
// answer): every part in one candidate, the last chunk's metadata.
func merged(chunks []map[string]any) map[string]any {
	var parts []any
	for _, c := range chunks {
		cand := c["candidates"].([]any)[0].(map[string]any)
		parts = append(parts, cand["content"].(map[string]any)["parts"].([]any)...)
	}
	last := chunks[len(chunks)-1]
	out := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts},
		"finishReason": "STOP", "index": 0}}, "modelVersion": last["modelVersion"], "responseId": "fake"}
	if u, ok := last["usageMetadata"]; ok {
		out["usageMetadata"] = u
	}
	return out
}

func writeStream(w http.ResponseWriter, chunks []map[string]any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	for _, c := range chunks {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
}

// SchemaAnswer is a JSON value that satisfies schema (an OpenAPI or JSON
// Schema object as gemini-cli sends in responseJsonSchema), chosen to let
// the client carry on undisturbed: every property present, strings
// "fakegemini", an enum's "user" when it has one (the next-speaker check:
// hand the turn back) else its first value, integers their minimum or 1,
// numbers their minimum or 0 (a loop check's confidence), booleans false,
// arrays empty.
func SchemaAnswer(schema json.RawMessage) any {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return map[string]any{}
	}
	return example(s)
}

func example(s map[string]any) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		for _, v := range enum {
			if v == "user" {
				return v
			}
		}
		return enum[0]
	}
	typ, _ := s["type"].(string)
	if list, ok := s["type"].([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	minimum, hasMin := s["minimum"].(float64)
	switch strings.ToLower(typ) {
	case "object", "":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if ps, ok := p.(map[string]any); ok {
				out[name] = example(ps)
			}
		}
		return out
	case "array":
		return []any{}
	case "integer":
		if hasMin {
			return int(minimum)
		}
		return 1
	case "number":
		if hasMin {
			return minimum
		}
		return 0
	case "boolean":
		return false
	default:
		return "fakegemini"
	}
}
