package tui

import (
	"testing"
)

// TestAlwaysNamesTheTemplate: before 2 is pressed, the card names the
// template "always" would make, the name the journal and `sentinel
// templates` use for it.
func TestAlwaysNamesTheTemplate(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 200, 50)
	h.openCard(shellPrompt("npm run test", "npm", "run", "test"))
	contains(t, h.screen(), "named “npm run test (exactly) in this project”")
}
