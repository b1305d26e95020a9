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

// key edits the text; it reports submitted (enter) or cancelled (esc).
func (e *editor) key(k tea.KeyPressMsg) (submitted, cancelled bool) {
	switch k.String() {
	case "enter":
		return true, false
	case "esc":
		return false, true
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
	return false, false
}

// insert adds typed or pasted text, dropping control characters.
func (e *editor) insert(s string) {
	for _, r := range s {
		if r >= 0x20 && r != 0x7f {
			e.text = append(e.text, r)
		}
	}
}
