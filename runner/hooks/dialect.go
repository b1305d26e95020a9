package hooks

import "github.com/sentinelhq/sentinel/approvals/wire"

// Event is one hook invocation read from an agent's payload: either a
// request that needs a decision, or a report to journal.
type Event struct {
	Adapter string
	Name    string        // the agent's event name, e.g. PreToolUse
	Request *wire.Request // set when the event needs a decision
	Report  *wire.Report  // set when it only informs
}

// Answer is what a hook command prints and its exit status.
type Answer struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// Dialect is one agent's hook language: `sentinel hook <Name>` reads the
// agent's payload with Parse, asks the broker, and prints Answer.
type Dialect interface {
	// Name is the adapter name the hook command takes.
	Name() string
	// Parse reads one hook payload. Anything it cannot read is an error;
	// the caller denies.
	Parse(payload []byte) (Event, error)
	// Answer writes a decision in the agent's own format.
	Answer(ev Event, d wire.Decision) Answer
	// Note is what the hook prints after a tool-result report whose ack
	// carried a note (what Sentinel refused outside the hook's sight), or
	// nil when the agent has no way to take it.
	Note(ev Event, note string) []byte
}

// Steps is a dialect with steps of its own around the ask (Claude Code's
// PermissionRequest step): Before answers an event without asking the
// broker (ok false: ask as usual), AfterDeny may replace the answer to a
// deny (ok false: answer the deny). The hook side knows no dialect by
// name; it calls these when the dialect has them.
type Steps interface {
	Before(ev Event, socket string) (a Answer, ok bool)
	AfterDeny(ev Event, payload []byte, d wire.Decision, askErr error, socket string) (a Answer, ok bool)
}

// Failure is the answer for a hook that could not get a decision: a deny
// in the agent's format, exit 2, the reason on stderr.
func Failure(d Dialect, event string, err error) Answer {
	return d.Answer(Event{Adapter: d.Name(), Name: event}, wire.DenyBy("error", err.Error()))
}
