package runner

import (
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// CoderFailed is how a run ends when its coder never did the work: the
// agent said its turn failed (the model server returned errors, the provider
// is misconfigured, the request was refused), or it ended before finishing a
// turn. It is the agent's error, not the file count: a coder that finished
// its turn and changed nothing (it answered a question) did not fail.
type CoderFailed struct {
	Coder  string
	Reason string // the agent's own error, one line, hidden characters spelled out
}

func (e *CoderFailed) Error() string { return "coder " + e.Coder + " failed: " + e.Reason }

// maxReason bounds the agent's error as the reports carry it.
const maxReason = 2000

// coderFailed is the outcome for coder's error reason (the agent's text:
// made one safe line and bounded), or nil when it gave none.
func coderFailed(coder, reason string) *CoderFailed {
	reason = textsafe.Line(strings.Join(strings.Fields(reason), " "))
	if reason == "" {
		return nil
	}
	if r := []rune(reason); len(r) > maxReason {
		reason = string(r[:maxReason]) + "…"
	}
	return &CoderFailed{Coder: coder, Reason: reason}
}
