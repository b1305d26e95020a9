package runner

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// renderToolCalls is the final report's tool-call count ("N tool calls, M
// failed") and every failed call, each the coder's word.
func renderToolCalls(evs []journal.Event) string {
	calls, failed := approvals.ToolCounts(evs)
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Tool calls\n\n%d tool calls, %d failed.\n", calls, failed)
	for i, ev := range approvals.FailedToolCalls(evs) {
		if i == 0 {
			b.WriteString("\nFailed (as the coder reported them):\n\n")
		}
		fmt.Fprintf(&b, "- %s\n", md(ev.Text))
	}
	return b.String()
}
