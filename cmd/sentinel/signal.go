package main

import (
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/tui"
)

// tuiSignal is the person's [notify] settings for the TUI: how a card's
// arrival is announced (bell, title, the terminal's desktop notification).
// [notify] is the person's alone, so only the user config is read; a config
// that does not load was already refused when the command started.
func tuiSignal() tui.Signal {
	c, err := config.Load("")
	if err != nil {
		return tui.Signal{}
	}
	s := tui.Signal{Desktop: c.Notify.Terminal}
	s.NoBell = c.Notify.Bell != nil && !*c.Notify.Bell
	s.NoTitle = c.Notify.Title != nil && !*c.Notify.Title
	if c.Notify.Desktop != nil && !*c.Notify.Desktop {
		s.Desktop = "off"
	}
	return s
}

// tuiReduceMotion is the person's reduce_motion (config.Config.ReduceMotion)
// for the TUI; off when the config cannot be read.
func tuiReduceMotion() bool {
	c, err := config.Load("")
	return err == nil && c.ReduceMotion != nil && *c.ReduceMotion
}
