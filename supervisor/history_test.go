package supervisor

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestHistoryKeepsTheNewestOfEachSort(t *testing.T) {
	h := NewHistory(3)
	for i := 1; i <= 5; i++ {
		h.Observe(journal.Event{Lane: journal.Tool, Kind: "tool-call", Text: fmt.Sprintf("call %d", i)})
	}
	h.Observe(journal.Event{Lane: journal.Coder, Kind: "output", Text: "screen noise"})
	h.Observe(journal.Event{Lane: journal.Tool, Kind: "verify", Text: "verify: go test ./... → passed"})
	h.Observe(journal.Event{Lane: journal.Tool, Kind: "result", Text: "go test ./... → exit 1\n--- FAIL: TestX"})
	recent, validations := h.Snapshot()
	for _, want := range []string{"call 4", "call 5", "--- FAIL: TestX"} {
		if !strings.Contains(recent, want) {
			t.Errorf("recent lacks %q:\n%s", want, recent)
		}
	}
	for _, gone := range []string{"call 1", "call 2", "call 3", "screen noise"} {
		if strings.Contains(recent, gone) {
			t.Errorf("recent still holds %q:\n%s", gone, recent)
		}
	}
	if !strings.Contains(validations, "→ passed") || !strings.Contains(validations, "--- FAIL: TestX") {
		t.Errorf("validations:\n%s", validations)
	}
}
