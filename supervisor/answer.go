package supervisor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/sentinelhq/sentinel/internal/textsafe"
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
	if err := decodeObject(text, &v, "decision", "reason", "risk"); err != nil {
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

// decodeObject finds the one JSON object in text and decodes it into v. Each
// of required must be present and not null: an answer that parses but lacks
// a field its schema requires is an error like any other, and so a no.
func decodeObject(text string, v any, required ...string) error {
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
	if len(required) > 0 {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &fields); err != nil {
			return fmt.Errorf("the answer does not parse: %v", err)
		}
		for _, f := range required {
			if raw, ok := fields[f]; !ok || string(raw) == "null" {
				return fmt.Errorf("the answer lacks the required field %q", f)
			}
		}
	}
	return nil
}

// hasControl says whether s holds a control character (escape sequences,
// NUL, DEL, C1 controls) once whitespace has been folded: text that reaches
// the coder's terminal as typed input must not carry keys of its own.
func hasControl(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return true
		}
	}
	return false
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string { return textsafe.ClipLine(s, n) }
