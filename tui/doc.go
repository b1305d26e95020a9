// Package tui is Sentinel's Bubble Tea app: the coder, tool, approval and
// supervisor lanes in panes (a 2×2 grid when wide, stacked when narrow) and as
// one timeline, the coder's own screen through a terminal emulator, the
// approval card and its remember chooser, search, help and a status bar.
// Everything it shows comes from a run's event stream through Session; Run
// drives a live run and ReplaySession shows a recorded one. The review screen
// (review*.go) shows the change before it lands — files flagged first, the
// verification results, a highlighted diff — and sends the person's verdict
// once on the ReviewRequest; RunReview shows it alone for `sentinel review`.
//
// Keys reach the coder only in attach mode (and the emulator's answers to the
// coder's terminal queries); answering a card never does. Update does no I/O:
// Session calls that do (Stop, Steer, ResizeCoder, PastRequests) run in
// tea.Cmds, and bytes for the coder go out through one ordered writer.
//
// It must not reach into runner internals, and the approvals it shows are
// decided elsewhere: it only passes the person's answer back on the Prompt.
package tui
