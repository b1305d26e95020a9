package approvals

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// MaxPending is how many requests of one run may be in flight at once
// (waiting for policy, a person or a supervisor). A coder that floods the
// broker gets the overflow denied at once, so memory stays bounded and a
// real request is not buried under thousands of cards.
const MaxPending = 64

// pendingLimit counts a broker's requests in flight and coalesces what it
// journals about the overflow: the first denied request of a burst is
// journaled in full, the rest only as a count, journaled when the burst
// ends (a slot frees up, or the broker closes).
type pendingLimit struct {
	n atomic.Int64

	mu     sync.Mutex
	denied int // overflow denied in the current burst
}

// admit reserves a slot; false when MaxPending are already in flight.
func (b *Broker) admit() bool {
	if b.pending.n.Add(1) > MaxPending {
		b.pending.n.Add(-1)
		return false
	}
	return true
}

// release frees a slot and ends a burst of overflow, if there was one.
func (b *Broker) release() {
	b.pending.n.Add(-1)
	b.endBurst()
}

// overflow denies a request that came while MaxPending were in flight.
func (b *Broker) overflow(req Request) Decision {
	req = fromArgv(req)
	req.ID = fmt.Sprintf("%s-%d", b.idPrefix, b.seq.Add(1))
	d := denyBy("limit", fmt.Sprintf("too many pending requests: %d waiting (at most %d); ask again once they are answered", b.pending.n.Load(), MaxPending))
	d.RequestID = req.ID
	b.pending.mu.Lock()
	b.pending.denied++
	first := b.pending.denied == 1
	b.pending.mu.Unlock()
	if first {
		b.journal(journal.System, KindRequestFlood, fmt.Sprintf("too many pending requests (%d): new ones are denied until some are answered", MaxPending), FloodNote{MaxPending: MaxPending})
		b.journalRequest(req, nil)
		b.journalDecision(req, d)
	}
	return d
}

// endBurst journals how many more requests a burst of overflow denied.
func (b *Broker) endBurst() {
	b.pending.mu.Lock()
	more := b.pending.denied - 1
	b.pending.denied = 0
	b.pending.mu.Unlock()
	if more > 0 {
		b.journal(journal.System, KindRequestFloodEnd, fmt.Sprintf("denied %d more request(s) while too many were pending (only the first is journaled in full)", more), FloodNote{Denied: more})
	}
}

// FloodNote is the data of a request-flood event (MaxPending, the bound
// that was reached) and of the request-flood-end after it (Denied, how
// many more requests the burst denied).
type FloodNote struct {
	Denied     int `json:"denied,omitempty"`
	MaxPending int `json:"max_pending,omitempty"`
}
