package tui

import (
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// TestInstallCardNamesItsHostsAndHAllowsThem: a package install's card
// names the registry hosts it will fetch from and offers h, which
// approves once with them; a card without hosts answers nothing to h.
func TestInstallCardNamesItsHostsAndHAllowsThem(t *testing.T) {
	// At 60x15 the card's facts and keys leave no row to scroll its
	// policy reason into (#37 F2): it cannot be approved there, only
	// denied, until the screen is larger.
	h := newThemedHarness(t, "nocolor", 60, 15)
	p := shellPrompt("npm install", "npm", "install")
	p.Fetch = &policy.Fetch{Ecosystem: policy.EcoNPM, Command: "npm install", Hosts: []string{"registry.npmjs.org"}}
	h.openCard(p)
	h.press("]", "]", "h")
	if a, ok := answered(p); ok || !h.m.cardClipped {
		t.Fatalf("60x15: h answered %+v, %v (clipped %v) on a card whose reason is not on screen:\n%s", a, ok, h.m.cardClipped, h.screen())
	}
	for _, size := range [][2]int{{60, 17}, {80, 24}, {120, 40}} {
		h := newThemedHarness(t, "nocolor", size[0], size[1])
		p := shellPrompt("npm install", "npm", "install")
		p.Fetch = &policy.Fetch{Ecosystem: policy.EcoNPM, Command: "npm install", Hosts: []string{"registry.npmjs.org"}}
		h.openCard(p)
		s := h.screen()
		contains(t, s, "needs")
		contains(t, s, "registry.npmjs.org")
		contains(t, s, "[h]")
		for i := 0; i < 20; i++ { // the card's rows that did not fit, scrolled
			m := rowsCounter.FindStringSubmatch(h.screen())
			if m == nil || m[2] == m[3] {
				break
			}
			h.press("]")
		}
		h.press("h")
		a, ok := answered(p)
		if !ok || a.Kind != approvals.ApproveOnce || !a.WithHosts {
			t.Fatalf("%v: h answered %+v, %v; want approve once with hosts", size, a, ok)
		}
	}
	h = newThemedHarness(t, "nocolor", 80, 24)
	p = shellPrompt("npm run test", "npm", "run", "test")
	h.openCard(p)
	notContains(t, h.screen(), "[h]")
	h.press("h")
	if a, ok := answered(p); ok {
		t.Fatalf("h answered a card that needs no host: %+v", a)
	}
	contains(t, h.screen(), "fetches from no known registry")
	h.press("a")
	if a, ok := answered(p); !ok || a.WithHosts {
		t.Fatalf("a answered %+v, %v; want approve once without hosts", a, ok)
	}
}
