package runner

import (
	"context"
	"errors"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// relay hands a message the person typed to the supervisor model, which
// decides what the coder is told. It returns at once; the model turn runs in
// the background and everything it decides is journaled on the supervisor
// lane. If the model fails, the person's words go to the coder as typed: a
// model failure never loses what the person said.
func (r *coderStage) relay(text string) error {
	if c := r.cur(); c == nil {
		return errors.New("the coder is not running")
	}
	r.emit(journal.Supervisor, KindPerson, "you → supervisor: "+text, Said{Text: text})
	go func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-r.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		res, err := r.sup.Relay(ctx, text)
		if err != nil {
			// The person's own words go on as typed: that is their intent, not
			// a widening, and nothing of the model's answer reaches the coder.
			// The failure is journaled for the final report, but does not hold
			// the run.
			r.emit(journal.Supervisor, KindRelayFailed, "the supervisor could not relay your message ("+clipLine(err.Error(), 160)+"); it goes to the coder as you typed it",
				GateFailure{Gate: gateRelay, Reason: clipLine(err.Error(), 300) + "; your message went to the coder as typed"})
			r.tellOrSay(text)
			return
		}
		if res.Standing != "" {
			r.emit(journal.Supervisor, KindStanding, "standing decision from you: "+res.Standing, Said{Text: res.Standing})
		}
		if res.ToPerson != "" {
			r.emit(journal.Supervisor, KindToPerson, "supervisor → you: "+res.ToPerson, Said{Text: res.ToPerson})
		}
		if res.ToCoder != "" {
			r.emit(journal.Supervisor, KindToCoder, "supervisor → coder: "+res.ToCoder, Said{Text: res.ToCoder, From: text})
			r.tellOrSay(res.ToCoder)
		}
	}()
	return nil
}

// tellOrSay sends text to the coder; a coder that has gone in the meantime
// is noted in the journal, since nobody is waiting on an error any more.
func (r *coderStage) tellOrSay(text string) {
	if err := r.tellCoder(text); err != nil {
		r.emit(journal.System, KindSteerFailed, "the message did not reach the coder: "+err.Error(), nil)
	}
}

// clipLine shortens s to n bytes on one line.
func clipLine(s string, n int) string { return textsafe.ClipBytes(oneLine(s), n) }
