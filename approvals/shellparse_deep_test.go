package approvals

import (
	"runtime/debug"
	"strings"
	"testing"
)

// The approvals reader (templates, grant breadths) reads shell text
// through policy.ReadShell; text nesting deeper than the engine reads is
// an error it carries, not a stack overflow that kills the broker.
// Not parallel: the stack limit is global.
func TestSplitCommandsRefusesTextNestedDeeperThanItReads(t *testing.T) {
	old := debug.SetMaxStack(64 << 20) // an overflow shows fast without the bound
	defer debug.SetMaxStack(old)
	for _, line := range []string{
		strings.Repeat("(", 300_000),
		strings.Repeat("ls && ", 300_000) + "ls",
	} {
		parts, err := splitCommands(line)
		if err == nil || !strings.Contains(err.Error(), "nests deeper than Sentinel reads") {
			t.Errorf("splitCommands(%.20q…) = %d parts, %v; want the depth refusal", line, len(parts), err)
		}
	}
}
