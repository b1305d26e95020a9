package coderstream

import "github.com/sentinelhq/sentinel/internal/journal"

// quietKinds are the agents' lifecycle chatter (a turn starting, the
// agent's own session bookkeeping) on the coder and system lanes, and a
// stream's repeat of what the hooks report on the tool lane. They stay in
// the journal (the idle signal and the reports read them) but no lane
// shows them.
var quietKinds = map[journal.Lane]map[journal.Kind]bool{
	journal.System: {TurnStart: true, Lifecycle: true},
	journal.Coder:  {TurnStart: true, Lifecycle: true},
	journal.Tool:   {StreamCall: true, StreamResult: true},
}

// Quiet reports whether a view's lanes leave ev out: an adapter's
// lifecycle line, or a stream's repeat of a hook-reported tool call. The
// decision is the event's lane and kind, which the adapter set; its text
// is never read.
func Quiet(ev journal.Event) bool {
	return quietKinds[ev.Lane][ev.Kind]
}
