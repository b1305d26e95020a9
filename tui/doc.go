// Package tui is Sentinel's Bubble Tea app: the coder, tool, approval and
// supervisor lanes in panes and as one timeline, the approval card, the
// remember chooser, help, and (later) diff review. Everything it shows comes
// from a run's event stream through Session.
//
// It must not do I/O in Update and must not reach into runner internals.
package tui
