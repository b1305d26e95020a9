package approvals

import (
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Journaled is one request the broker journaled, with its decision.
type Journaled struct {
	Request   Request
	Decision  Decision // zero until decided
	Decided   bool
	Asked     time.Time // the request event's time (zero for a decision alone)
	DecidedAt time.Time
}

// ReadJournaled pairs the broker's "request" and "decision" events in evs
// (see the package doc), in the order the requests were asked. A decision
// whose request is not in evs stands alone. Events that do not decode are
// skipped; the first such is the error, for callers that must not skip.
func ReadJournaled(evs []journal.Event) ([]Journaled, error) {
	var out []Journaled
	var first error
	index := map[string]int{}
	for _, ev := range evs {
		if ev.Lane != journal.Approval {
			continue
		}
		switch ev.Kind {
		case KindRequest:
			var r Request
			if err := ev.Decode(&r); err != nil {
				first = firstErr(first, fmt.Errorf("journaled request %s: %w", ev.Data, err))
				continue
			}
			index[r.ID] = len(out)
			out = append(out, Journaled{Request: r, Asked: ev.Time})
		case KindDecision:
			var d Decision
			if err := ev.Decode(&d); err != nil {
				first = firstErr(first, fmt.Errorf("journaled decision %s: %w", ev.Data, err))
				continue
			}
			i, ok := index[d.RequestID]
			if !ok {
				i = len(out)
				out = append(out, Journaled{})
			}
			out[i].Decision, out[i].Decided, out[i].DecidedAt = d, true, ev.Time
		}
	}
	return out, first
}

func firstErr(have, err error) error {
	if have != nil {
		return have
	}
	return err
}
