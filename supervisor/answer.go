package supervisor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Verdict is the judge's structured answer.
type Verdict struct {
	Decision string `json:"decision"` // allow | deny
	Reason   string `json:"reason"`
	Risk     string `json:"risk"` // low | medium | high
}

// judgeSchema is the shape the judge must answer in.
var judgeSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"decision": map[string]any{"type": "string", "enum": []string{"allow", "deny"},
			"description": "allow only when the request is a reasonable step towards the task"},
		"reason": map[string]any{"type": "string", "description": "one or two sentences the coder will read"},
		"risk":   map[string]any{"type": "string", "enum": []string{"low", "medium", "high"}},
	},
	"required":             []string{"decision", "reason", "risk"},
	"additionalProperties": false,
}

// ParseVerdict reads a judge's answer strictly: a JSON object (a code fence
// around it is tolerated) with decision allow or deny, a reason, and a risk
// of low, medium or high. Anything else is an error — and so a deny.
func ParseVerdict(text string) (Verdict, error) {
	var v Verdict
	if err := decodeObject(text, &v); err != nil {
		return v, err
	}
	v.Decision = strings.ToLower(strings.TrimSpace(v.Decision))
	v.Risk = strings.ToLower(strings.TrimSpace(v.Risk))
	v.Reason = strings.TrimSpace(v.Reason)
	switch v.Decision {
	case "allow", "deny":
	default:
		return v, fmt.Errorf("the answer's decision is %q, not allow or deny", v.Decision)
	}
	switch v.Risk {
	case "low", "medium", "high":
	default:
		return v, fmt.Errorf("the answer's risk is %q, not low, medium or high", v.Risk)
	}
	if v.Reason == "" {
		return v, errors.New("the answer gives no reason")
	}
	return v, nil
}

// decodeObject finds the one JSON object in text and decodes it into v.
func decodeObject(text string, v any) error {
	s := strings.TrimSpace(text)
	if s == "" {
		return errors.New("the answer is empty")
	}
	s = strings.TrimPrefix(s, "```json")
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return fmt.Errorf("the answer is not a JSON object: %q", clip(text, 120))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the answer does not parse: %v", err)
	}
	if dec.More() {
		return errors.New("the answer holds more than one JSON value")
	}
	return nil
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
