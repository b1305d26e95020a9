package hooks

import (
	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/flatjson"
)

// Reply is d as an answer whose JSON object out writes (its members, into
// an open object: internal/flatjson, no reflection in a hook's process): out
// gets whether d allows and the reason to show (an allow's reason; a
// deny's message for the agent, else its reason). A deny also exits 2 with that
// reason and who decided on stderr: every agent treats that as a block,
// even one that does not read the JSON.
func Reply(d wire.Decision, out func(w *flatjson.Writer, allowed bool, reason string)) Answer {
	allowed := d.Allowed()
	reason := d.Reason
	if !allowed {
		reason = first(d.Message, d.Reason, "Sentinel denied this")
	}
	w := new(flatjson.Writer).Open()
	out(w, allowed, reason)
	b, _ := w.Close().Bytes() // only strings: nothing to fail
	a := Answer{Stdout: append(b, '\n')}
	if !allowed {
		a.Exit = 2
		a.Stderr = reason + " [" + d.By + "]"
	}
	return a
}

// Word is "allow" or "deny".
func Word(allowed bool) string {
	if allowed {
		return "allow"
	}
	return "deny"
}

// first is the first non-empty string.
func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// DecisionReason is the dialect of agents whose hooks read the shared
// payload and answer {"decision": "allow"|"deny", "reason": …} with no
// notes (Gemini CLI, Crush): each agent's room names it, one
// implementation answers for all of them.
func DecisionReason(name string) Dialect { return decisionReason(name) }

type decisionReason string

func (d decisionReason) Name() string { return string(d) }

func (d decisionReason) Parse(payload []byte) (Event, error) { return Read(string(d), payload) }

func (decisionReason) Answer(_ Event, dec wire.Decision) Answer {
	return Reply(dec, func(w *flatjson.Writer, allowed bool, reason string) {
		w.String("decision", Word(allowed)).String("reason", reason)
	})
}

func (decisionReason) Note(Event, string) []byte { return nil }
