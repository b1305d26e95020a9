package steer

import "github.com/sentinelhq/sentinel/internal/journal"

// The event kinds the Watcher journals on the supervisor lane (named Event…
// because Kind is a finding's kind here).
const (
	// EventFinding is a finding the Watcher acted on; its data is the Finding.
	EventFinding journal.Kind = "steer-finding"
	// EventError is a steering message that could not reach the coder.
	EventError journal.Kind = "steer-error"
)

// AsFinding decodes a finding the Watcher journaled.
func AsFinding(ev journal.Event) (Finding, bool) {
	return journal.As[Finding](ev, journal.Supervisor, EventFinding)
}
