package tui

import (
	"io"
	"os"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// Options configure the TUI for one run.
type Options struct {
	// Theme is "auto" (or empty: dark or light from the terminal background),
	// a built-in theme (dark, light, high-contrast) or a user theme's name.
	Theme string
	// ThemeDir holds user themes (*.toml); empty means themes.Dir(). Run
	// watches it and reloads themes when a file changes.
	ThemeDir string
	// NoColor turns colour off; Run also sets it when NO_COLOR is set.
	NoColor bool
	// History is how many lines each lane keeps for scrolling (older lines
	// stay in the journal). 0 means DefaultHistory.
	History int
	// ExitWhenDone quits the TUI as soon as the run finishes instead of
	// waiting for the person to press q.
	ExitWhenDone bool
	// Frame is how long streaming events are gathered before the screen is
	// redrawn, and the coder pane's redraws are at most one a Frame. 0 means
	// DefaultFrame, or ReducedMotionFrame with ReduceMotion.
	Frame time.Duration
	// ReduceMotion is the person's "reduce motion" choice (reduce_motion in
	// their config.toml): the wait line's spinner is a still mark (its
	// elapsed seconds still count up each second, so a wait is never
	// silent), and the coder pane, which follows every frame of the
	// coder's own animations, redraws at most once a ReducedMotionFrame.
	ReduceMotion bool
	// Guard is how long a newly opened approval card ignores keys, so a
	// keystroke already in flight cannot answer it. 0 means DefaultGuard.
	Guard time.Duration
	// Preview says which earlier requests a remembered grant would have
	// approved, asked of the run's own approval chain (runner.Run's
	// PreviewGrant), so the remember chooser never disagrees with the
	// broker. It must not do I/O: it runs in Update. nil: the chooser shows
	// no preview (the TUI keeps no policy engine of its own).
	Preview func(spec approvals.GrantSpec, past []approvals.Request) []approvals.Request
	// Signal says how a card's arrival is announced (bell, title,
	// desktop notification); the zero value is all on (signal.go).
	Signal Signal
	// Now is the clock; nil means time.Now. Tests inject one.
	Now func() time.Time
	// Input and Output replace the terminal (nil means stdin/stdout); Size is
	// the screen size to assume when Output is not a terminal.
	Input  io.Reader
	Output io.Writer
	Size   [2]int
}

// Defaults for Options.
const (
	DefaultHistory = 10000
	DefaultFrame   = 16 * time.Millisecond
	// ReducedMotionFrame is the coder pane's frame with ReduceMotion: an
	// agent's spinner (Claude Code's every 120 ms, its shimmer every 50 ms)
	// moves at most ten times a second; typed text still shows at once
	// after a pause.
	ReducedMotionFrame = 100 * time.Millisecond
	DefaultGuard       = 400 * time.Millisecond
)

func (o Options) withDefaults() Options {
	if o.History <= 0 {
		o.History = DefaultHistory
	}
	if o.Frame <= 0 {
		o.Frame = DefaultFrame
		if o.ReduceMotion {
			o.Frame = ReducedMotionFrame
		}
	}
	if o.Guard <= 0 {
		o.Guard = DefaultGuard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if os.Getenv("NO_COLOR") != "" {
		o.NoColor = true
	}
	return o
}
