package runner

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// DECISIONS.md's "by" column names the template that decided, with its id
// (issue 37.12: templates have names; a row that says only t-76b48242
// tells a person nothing).
func TestDecisionsNameTheTemplateThatDecided(t *testing.T) {
	t.Parallel()
	evs := []journal.Event{
		ev(journal.Approval, "request", "shell: go test ./x", `{"id":"a-1","kind":"shell","command":"go test ./x"}`),
		ev(journal.Approval, "decision", "allowed", `{"request_id":"a-1","decision":"allow","by":"template:t-1a2b","template_names":["go test (any args) in this project"],"reason":"r"}`),
		ev(journal.Approval, "request", "shell: old", `{"id":"a-2","kind":"shell","command":"old"}`),
		ev(journal.Approval, "decision", "allowed", `{"request_id":"a-2","decision":"allow","by":"template:t-9","reason":"r"}`),
	}
	dec := renderDecisions(&Meta{ID: "r1"}, evs)
	for _, want := range []string{
		"| a remembered template (t-1a2b “go test (any args) in this project”) |",
		"| a remembered template (t-9) |", // a journal from before names were kept
	} {
		if !strings.Contains(dec, want) {
			t.Errorf("DECISIONS.md lacks %q:\n%s", want, dec)
		}
	}
}
