package supervisor

import (
	"fmt"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Totals is what the supervisor has cost so far in a run.
type Totals struct {
	Turns        int           `json:"turns"`
	Allowed      int           `json:"allowed"`
	Denied       int           `json:"denied"`
	Failed       int           `json:"failed"` // errors, timeouts, unparseable answers (each also a deny)
	InputTokens  int64         `json:"tokens_in"`
	OutputTokens int64         `json:"tokens_out"`
	Duration     time.Duration `json:"duration_ns"`
}

// String is the status bar's short form.
func (t Totals) String() string {
	return fmt.Sprintf("supervisor: %d turns, %d↑ %d↓ tokens, %s", t.Turns, t.InputTokens, t.OutputTokens, t.Duration.Round(100*time.Millisecond))
}

// TurnRecord is the data of a supervisor-lane event: one model turn.
type TurnRecord struct {
	Role       journal.Kind `json:"role"` // judge, advice, review, adversary, relay: the event's kind
	Backend    string       `json:"backend"`
	RequestID  string       `json:"request_id,omitempty"`
	Decision   string       `json:"decision,omitempty"` // allow, deny, accept, return
	Reason     string       `json:"reason,omitempty"`
	Risk       string       `json:"risk,omitempty"`
	Error      string       `json:"error,omitempty"`
	TokensIn   int64        `json:"tokens_in"`
	TokensOut  int64        `json:"tokens_out"`
	DurationMS int64        `json:"duration_ms"`
}

// Ledger journals each model turn on the supervisor lane and keeps Totals.
// It is safe for concurrent use; a nil journal only keeps the totals.
type Ledger struct {
	j      *journal.Journal
	mu     sync.Mutex
	totals Totals
}

// NewLedger journals to j (which may be nil).
func NewLedger(j *journal.Journal) *Ledger { return &Ledger{j: j} }

// Record adds one turn and journals it with text as the event's line.
func (l *Ledger) Record(rec TurnRecord, dur time.Duration, text string) {
	if l == nil {
		return
	}
	rec.DurationMS = dur.Milliseconds()
	l.mu.Lock()
	t := &l.totals
	t.Turns++
	t.InputTokens += rec.TokensIn
	t.OutputTokens += rec.TokensOut
	t.Duration += dur
	switch {
	case rec.Error != "":
		t.Failed++
	case rec.Decision == "allow" || rec.Decision == "accept":
		t.Allowed++
	case rec.Decision != "":
		t.Denied++
	}
	l.mu.Unlock()
	if l.j != nil {
		text = fmt.Sprintf("%s (%d+%d tokens, %s)", text, rec.TokensIn, rec.TokensOut, dur.Round(time.Millisecond))
		_, _ = l.j.Append(journal.Supervisor, rec.Role, text, rec) // a failure fails the journal; the run stops on that
	}
}

// Totals is the running sum.
func (l *Ledger) Totals() Totals {
	if l == nil {
		return Totals{}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.totals
}

// TotalsFromEvents sums the supervisor turns of a journal (for reports
// written after the run, from events.jsonl).
func TotalsFromEvents(evs []journal.Event) Totals {
	var l Ledger
	for _, ev := range evs {
		rec, ok := AsTurn(ev)
		if !ok || rec.Role == "" {
			continue
		}
		l.Record(rec, time.Duration(rec.DurationMS)*time.Millisecond, "")
	}
	return l.Totals()
}
