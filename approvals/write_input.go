package approvals

import (
	"encoding/json"

	"github.com/sentinelhq/sentinel/policy"
)

// WriteInput is what adapters put in a write or edit request's input:
// Claude Code's Write (content), Edit (old_string, new_string) and
// MultiEdit (edits), ACP's writes (content), the demo coder's. Every view
// of a card (the TUI, --plain, the service's page) reads it from here.
type WriteInput struct {
	Content   *string       `json:"content"`
	OldString string        `json:"old_string"`
	NewString *string       `json:"new_string"`
	Edits     []Replacement `json:"edits"`
}

// Replacement is one edit: Old's text out, New's in.
type Replacement struct {
	Old string `json:"old_string"`
	New string `json:"new_string"`
}

// WriteInputOf is r's write or edit input; false when r is neither or
// carries none that reads.
func WriteInputOf(r Request) (WriteInput, bool) {
	var in WriteInput
	if r.Kind != policy.KindWrite && r.Kind != policy.KindEdit || len(r.Input) == 0 {
		return in, false
	}
	if json.Unmarshal(r.Input, &in) != nil {
		return in, false
	}
	return in, true
}

// Replacements is the change as replacements, in order: a whole file's
// content is one with nothing old; an edit is its old and new strings.
func (in WriteInput) Replacements() []Replacement {
	switch {
	case in.Content != nil:
		return []Replacement{{New: *in.Content}}
	case in.NewString != nil:
		return []Replacement{{Old: in.OldString, New: *in.NewString}}
	default:
		return in.Edits
	}
}
