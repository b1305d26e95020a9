package plain

import (
	"strings"
	"testing"
)

// TestPlainCardNamesTheTemplate: the --plain card names the template 2
// would make before it is pressed, as the TUI's card does.
func TestPlainCardNamesTheTemplate(t *testing.T) {
	card := promptWith(t, writePrompt(3), "1\n")
	if !strings.Contains(card, "named “writing ") || !strings.Contains(card, " in this run”") {
		t.Fatalf("the card does not name what 2 would remember:\n%s", card)
	}
}
