package tui

import (
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A card that blocks the coder must reach a person who is looking elsewhere:
// its arrival rings the terminal bell once, the window title says how many
// requests wait, and where the terminal shows desktop notifications (OSC 9
// or OSC 777) one is raised. Nothing the coder wrote goes into the title or
// the notification: only counts and Sentinel's own run id, so no coder text
// reaches the terminal outside the screen's sanitized cells.

// Signal says how the TUI tells the person a card arrived; its zero value is
// the default: bell and title on, the desktop notification where the
// terminal is known to show one.
type Signal struct {
	NoBell  bool
	NoTitle bool
	// Desktop is "auto" (or empty), "osc9", "osc777" or "off".
	Desktop string
}

// ringQuiet is the shortest gap between two rings: a burst of cards rings once.
const ringQuiet = 2 * time.Second

// waitingTitle prefixes a page's title with the count of waiting cards.
func waitingTitle(n int, base string, s Signal) string {
	if n == 0 || s.NoTitle {
		return base
	}
	return fmt.Sprintf("⏳ %d waiting · %s", n, base)
}

// cardArrived is what a new card sounds like: the bell (at most once per
// ringQuiet) and the desktop notification.
func (m *model) cardArrived() tea.Cmd {
	now := m.opts.Now()
	if !m.lastRing.IsZero() && now.Sub(m.lastRing) < ringQuiet {
		return nil
	}
	m.lastRing = now
	var out strings.Builder
	if !m.opts.Signal.NoBell {
		out.WriteByte('\a')
	}
	text := "Sentinel: a request waits for you"
	if id := textsafe.Line(m.info.RunID); id != "" {
		text += " · " + id
	}
	out.WriteString(desktopNotice(m.opts.Signal.Desktop, text, os.Getenv))
	if out.Len() == 0 {
		return nil
	}
	return tea.Raw(out.String())
}

// desktopNotice is the escape sequence for a desktop notification, or "".
// text must be printable ASCII or plain Unicode: it is built by Sentinel,
// and anything below space or in C1 is dropped again here all the same.
func desktopNotice(mode, text string, getenv func(string) string) string {
	text = strings.Map(func(r rune) rune {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == ';' {
			return -1
		}
		return r
	}, text)
	if mode == "" || mode == "auto" {
		mode = desktopAuto(getenv)
	}
	var seq string
	switch mode {
	case "osc9":
		seq = "\x1b]9;" + text + "\x07"
	case "osc777":
		seq = "\x1b]777;notify;Sentinel;" + text + "\x07"
	default:
		return ""
	}
	if getenv("TMUX") != "" {
		// tmux passes a sequence through to the outer terminal only inside
		// DCS tmux; (with allow-passthrough on), every ESC doubled.
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return seq
}

// desktopAuto picks the notification the terminal is known to show: OSC 9
// for iTerm2, WezTerm, Ghostty and Windows Terminal; OSC 777 for foot and
// rxvt-unicode; none elsewhere (an unknown sequence may print as garbage).
func desktopAuto(getenv func(string) string) string {
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return "osc9"
	}
	if getenv("WT_SESSION") != "" {
		return "osc9"
	}
	term := getenv("TERM")
	switch {
	case strings.HasPrefix(term, "foot"), strings.HasPrefix(term, "rxvt-unicode"):
		return "osc777"
	}
	return "off"
}
