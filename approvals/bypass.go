package approvals

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A tool call whose hook ends without Sentinel's answer — killed by another
// of the coder's processes while a card waits, or by the machine — still
// runs in an agent that takes a failed hook for a go-ahead (Codex in place:
// runner/codex's HookIsOnlyGate). For such a run (BrokerConfig.HookOnlyGate)
// the broker keeps how each call was decided, by the tool call id its hook
// names; a tool result for one it did not allow proves the gate was passed
// by, and OnBypass (the run: stop the coder) is told. Which agent a run
// drives is the run's word, never a socket message's: the coder writes
// those.
//
// It sees only what reaches the socket: a coder that also ends the tool
// result's hook leaves no proof. The bound is the sandbox, as for any call.

// KindGateBypassed is the system event of a tool call that ran without
// Sentinel's allow.
const KindGateBypassed journal.Kind = "gate-bypassed"

// Bypass is a tool call that ran though Sentinel did not allow it.
type Bypass struct {
	Adapter    string `json:"adapter"` // as the tool result names it (the coder's word)
	Tool       string `json:"tool"`
	ToolCallID string `json:"tool_call_id"`
	Decision   string `json:"decision"` // how Sentinel had answered: a deny (with why), or no answer yet
}

func (b Bypass) Error() string {
	return fmt.Sprintf("%s ran tool call %s (%s) that Sentinel did not allow (%s): its hook was ended before the answer or the answer was ignored",
		b.Adapter, b.ToolCallID, b.Tool, b.Decision)
}

// callLedger is how recent hook-gated calls were decided, by tool call id;
// it keeps nothing unless on (BrokerConfig.HookOnlyGate). An id is the
// coder's word, as long as a protocol line may be (16 MiB): the ledger
// keeps its digest, so its 4096 calls hold kilobytes whatever ids it is
// sent.
type callLedger struct {
	on    bool
	mu    sync.Mutex
	by    map[callKey]string // id → "" when allowed, else how it was not
	order []callKey
}

// callKey is a tool call id's digest.
type callKey [sha256.Size]byte

const ledgerSize = 4096

// asked marks a hook-gated call as waiting: a tool result for it before
// the answer is a bypass too (the hook ended first).
func (l *callLedger) asked(req Request) { l.set(req, "no answer yet") }

// decided records the answer.
func (l *callLedger) decided(req Request, d Decision) {
	how := ""
	if !d.Allowed() {
		how = "deny: " + d.Reason
	}
	l.set(req, how)
}

func (l *callLedger) set(req Request, how string) {
	if !l.on || req.ToolCallID == "" {
		return
	}
	key := callKey(sha256.Sum256([]byte(req.ToolCallID)))
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.by == nil {
		l.by = map[callKey]string{}
	}
	if _, seen := l.by[key]; !seen {
		l.order = append(l.order, key)
		if len(l.order) > ledgerSize {
			delete(l.by, l.order[0])
			l.order = l.order[1:]
		}
	}
	l.by[key] = how
}

// passedBy is the bypass a tool result proves, if any.
func (l *callLedger) passedBy(r Report) (Bypass, bool) {
	if !l.on || r.Kind != coderstream.ToolResult || r.ToolCallID == "" {
		return Bypass{}, false
	}
	key := callKey(sha256.Sum256([]byte(r.ToolCallID)))
	l.mu.Lock()
	how, seen := l.by[key]
	l.mu.Unlock()
	if !seen || how == "" {
		return Bypass{}, false
	}
	return Bypass{Adapter: clipText(r.Adapter), Tool: clipText(r.Tool), ToolCallID: clipText(r.ToolCallID), Decision: how}, true
}

// checkBypass journals and reports a tool result that proves a bypass.
func (b *Broker) checkBypass(r Report) {
	bp, ok := b.calls.passedBy(r)
	if !ok {
		return
	}
	b.journal(journal.System, KindGateBypassed, bp.Error()+"; the run is stopped", bp)
	if b.cfg.OnBypass != nil {
		b.cfg.OnBypass(bp)
	}
}
