package tui

import (
	"fmt"
	"testing"
)

func TestPeek(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		h := newHarness(t, testInfo(), "dark", sz[0], sz[1])
		h.send(eventsMsg(demoEvents()))
		h.send(promptMsg{shellPrompt("npm run test", "npm", "run", "test")})
		fmt.Println(h.screen())
	}
}
