package tui

import (
	tea "charm.land/bubbletea/v2"
)

// editor is the one-line text field used for search, steering and deny
// messages. It is deliberately tiny: no cursor movement, no blinking, so
// views are deterministic.
type editor struct {
	prompt string
	text   []rune
}

func (e *editor) open(prompt string) { e.prompt, e.text = prompt, nil }

func (e *editor) value() string { return string(e.text) }

// key edits the text (enter and esc are rows of the mode's table:
// keys_lanes.go, keys_review.go).
func (e *editor) key(k tea.KeyPressMsg) {
	switch k.String() {
	case "backspace", "ctrl+h":
		if len(e.text) > 0 {
			e.text = e.text[:len(e.text)-1]
		}
	case "ctrl+u":
		e.text = nil
	default:
		if k.Text != "" {
			e.insert(k.Text)
		}
	}
}

// insert adds typed or pasted text, dropping control characters.
func (e *editor) insert(s string) {
	for _, r := range s {
		if r >= 0x20 && r != 0x7f {
			e.text = append(e.text, r)
		}
	}
}
