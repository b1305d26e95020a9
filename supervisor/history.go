package supervisor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// History keeps the recent events a supervisor turn needs — what the coder
// did, what was decided, what the validations said — in bounded memory.
// It is safe for concurrent use.
type History struct {
	mu          sync.Mutex
	recent      []journal.Event // tool calls/results, decisions, steering
	validations []journal.Event // verify events and test-like tool results
	steering    []journal.Event // every message sent to steer the coder
	summary     string          // the coder's last turn's final message
	keep        int
}

// NewHistory keeps the last keep events of each sort (20 when keep <= 0).
func NewHistory(keep int) *History {
	if keep <= 0 {
		keep = 20
	}
	return &History{keep: keep}
}

// Observe takes one journal event.
func (h *History) Observe(ev journal.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case ev.Lane == journal.Tool && (ev.Kind == KindVerifyStart || ev.Kind == KindVerify),
		ev.Is(journal.System, KindVerifyResult):
		h.validations = push(h.validations, ev, h.keep)
		return
	case ev.Is(journal.System, coderstream.Result):
		h.summary = ev.Text
		return
	case ev.Kind == KindSteer:
		h.steering = push(h.steering, ev, h.keep)
	case ev.Lane == journal.Tool,
		ev.Is(journal.Approval, approvals.KindDecision):
	default:
		return
	}
	h.recent = push(h.recent, ev, h.keep)
	if (ev.Kind == coderstream.ToolResult || ev.Kind == coderstream.Result) && looksLikeTestOutput(ev.Text) {
		h.validations = push(h.validations, ev, h.keep)
	}
}

// Snapshot renders the recent events and validations as text lines, oldest
// first.
func (h *History) Snapshot() (recent, validations string) {
	if h == nil {
		return "", ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return renderEvents(h.recent), renderEvents(h.validations)
}

// Steering renders the messages sent to steer the coder, oldest first (the
// newest keep of them).
func (h *History) Steering() string {
	if h == nil {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return renderEvents(h.steering)
}

// Summary is the coder's own final message of its last turn (a claim, not
// evidence), when its agent reports one.
func (h *History) Summary() string {
	if h == nil {
		return ""
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.summary
}

func push(list []journal.Event, ev journal.Event, keep int) []journal.Event {
	list = append(list, ev)
	if len(list) > keep {
		list = append(list[:0:0], list[len(list)-keep:]...)
	}
	return list
}

func renderEvents(evs []journal.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		fmt.Fprintf(&b, "- [%s %s] %s\n", ev.Lane, ev.Kind, clip(ev.Text, 300))
	}
	return strings.TrimRight(b.String(), "\n")
}

// looksLikeTestOutput spots the output of a test run among tool results.
func looksLikeTestOutput(s string) bool {
	for _, m := range []string{"--- FAIL", "--- PASS", "\nok  ", "FAIL\t", "PASS\n", "passed", "failed", "Tests:", "test result:"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return strings.HasPrefix(s, "ok  ")
}

// maxDecisions bounds how much of DECISIONS.md goes into a prompt.
const maxDecisions = 4000

// readDecisions is the tail of the run's DECISIONS.md: its header line and
// the newest rows that fit.
func readDecisions(runDir string) string {
	if runDir == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(runDir, "DECISIONS.md"))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| time ") {
			rows = append(rows, l)
		}
	}
	var out []string
	size := 0
	for i := len(rows) - 1; i >= 0; i-- {
		size += len(rows[i]) + 1
		if size > maxDecisions {
			break
		}
		out = append([]string{rows[i]}, out...)
	}
	if len(out) == 0 {
		return ""
	}
	return "| time | kind | request | decision | by | reason |\n" + strings.Join(out, "\n")
}
