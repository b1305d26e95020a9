package supervisor

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// RelayResult is the supervisor's answer to a message the person typed
// while the run is active: what (if anything) the coder is told, what the
// person is told back, and a lasting rule to keep.
type RelayResult struct {
	ToCoder  string `json:"to_coder"`          // the message for the coder; empty: the coder is not interrupted
	ToPerson string `json:"to_person"`         // an answer for the person (a question about the run)
	Standing string `json:"standing_decision"` // a lasting rule the judge and review follow from now on
	Reason   string `json:"reason"`
}

var relaySchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"to_coder": map[string]any{"type": "string",
			"description": "what the coder is told, in context; empty only when the message is a question for you"},
		"to_person": map[string]any{"type": "string",
			"description": "your answer to the person, when they asked you something; else empty"},
		"standing_decision": map[string]any{"type": "string",
			"description": "a lasting rule the person set, in one sentence; else empty"},
		"reason": map[string]any{"type": "string"},
	},
	"required":             []string{"to_coder", "to_person", "standing_decision", "reason"},
	"additionalProperties": false,
}

// ParseRelay reads a relay answer strictly. An answer that neither tells the
// coder anything nor answers the person would swallow the person's words: it
// is an error, and the caller passes the message on as typed.
func ParseRelay(text string) (RelayResult, error) {
	var r RelayResult
	if err := decodeObject(text, &r, "to_coder", "to_person", "standing_decision", "reason"); err != nil {
		return RelayResult{}, err
	}
	// Whatever the model says reaches the coder's input as typed keys (and
	// the person's screen): an answer carrying control characters is garbage,
	// and the person's own words go on instead.
	for _, f := range []string{r.ToCoder, r.ToPerson, r.Standing} {
		if hasControl(f) {
			return RelayResult{}, errors.New("the answer holds control characters")
		}
	}
	r.ToCoder = oneParagraph(r.ToCoder)
	r.ToPerson = strings.TrimSpace(r.ToPerson)
	r.Standing = oneParagraph(r.Standing)
	r.Reason = strings.TrimSpace(r.Reason)
	if r.ToCoder == "" && r.ToPerson == "" {
		return RelayResult{}, errors.New("the answer neither tells the coder anything nor answers the person")
	}
	return r, nil
}

// oneParagraph joins s onto one line: a newline typed into an agent's
// prompt could send half a message.
func oneParagraph(s string) string { return strings.Join(strings.Fields(s), " ") }

type relayFacts struct {
	Task, Message, Recent, Validations, Decisions string
}

// Relay hands the person's message to the model, which decides what to tell
// the coder. On any failure the caller should pass the message on as typed:
// the person's word is never lost because a model failed. A standing
// decision in the answer is kept and shown to every later judge, review and
// relay turn.
func (s *Supervisor) Relay(ctx context.Context, message string) (RelayResult, error) {
	recent, validations := s.history.Snapshot()
	facts := relayFacts{Task: s.task, Message: message, Recent: recent, Validations: validations,
		Decisions: s.decisions()}
	sys, err := s.prompts.Render("relay.system", facts)
	if err != nil {
		return RelayResult{}, err
	}
	user, err := s.prompts.Render("relay.user", facts)
	if err != nil {
		return RelayResult{}, err
	}
	var res RelayResult
	err = s.ask(ctx, KindRelay, Turn{Role: string(KindRelay), System: sys, User: user, SchemaName: "relay", Schema: relaySchema},
		TurnRecord{}, func(r Reply, rec *TurnRecord) error {
			var perr error
			res, perr = ParseRelay(r.Text)
			rec.Decision, rec.Reason = relayDecision(res), res.Reason
			return perr
		})
	if err != nil {
		return RelayResult{}, err
	}
	if res.Standing != "" {
		s.standing.add(res.Standing)
	}
	return res, nil
}

func relayDecision(r RelayResult) string {
	if r.ToCoder == "" {
		return "answered the person"
	}
	return "told the coder"
}

// standingRules are the lasting rules the person set during the run.
type standingRules struct {
	mu    sync.Mutex
	rules []string
}

func (s *standingRules) add(r string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.rules {
		if have == r {
			return
		}
	}
	s.rules = append(s.rules, r)
}

func (s *standingRules) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.rules) == 0 {
		return ""
	}
	return "From the person (these override everything else):\n- " + strings.Join(s.rules, "\n- ")
}

// Standing returns the lasting rules the person set during the run, oldest
// first.
func (s *Supervisor) Standing() []string {
	if s == nil {
		return nil
	}
	s.standing.mu.Lock()
	defer s.standing.mu.Unlock()
	return append([]string(nil), s.standing.rules...)
}

// decisions is the STANDING DECISIONS part of a prompt: the person's rules,
// then the tail of DECISIONS.md.
func (s *Supervisor) decisions() string {
	parts := []string{}
	if r := s.standing.text(); r != "" {
		parts = append(parts, r)
	}
	if d := readDecisions(s.runDir); d != "" {
		parts = append(parts, d)
	}
	return strings.Join(parts, "\n\n")
}
