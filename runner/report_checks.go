package runner

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// failedCheckTails is the end of each failed check's output for a report,
// in a fence the output cannot close (it is the coder's code speaking).
func failedCheckTails(checks []CheckResult) string {
	var b strings.Builder
	for _, c := range checks {
		if c.Passed() {
			continue
		}
		fmt.Fprintf(&b, "\nOutput of `%s` (exit %d, tail):\n\n", md(c.Command), c.ExitCode)
		tail := strings.TrimSpace(c.Tail)
		if c.Error != "" {
			tail = strings.TrimSpace(c.Error + "\n" + tail)
		}
		if tail == "" {
			tail = "(no output)"
		}
		fmt.Fprintf(&b, "```\n%s\n```\n", strings.ReplaceAll(textsafe.Block(tail), "```", "'''"))
	}
	return b.String()
}
