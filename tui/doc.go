// Package tui is Sentinel's Bubble Tea app. One root model (root.go) owns
// what every screen shares — the theme and its styles, help, the footer's
// notice, the screen size, the options and keys (chrome.go) — and the key
// guard, and shows one page:
//
//   - the lanes (model): the coder, tool, approval and supervisor lanes in
//     panes (a grid, two a row, when wide, stacked when narrow; the lanes
//     and their tags are a table, lanes.go) and as one timeline,
//     the coder's own screen through a terminal emulator, the approval card
//     and its remember chooser, search and a status bar, and the review
//     screen over the lanes when the run asks for one. Everything it shows
//     comes from a run's event stream through Session: Run drives a live
//     run, and a replay is the same page over a ReplaySession (a recorded
//     run, or a scripted one in tests);
//   - the standalone review (reviewPage): RunReview shows the review screen
//     alone for `sentinel review`.
//
// The review screen (review*.go) shows the change before it lands — files
// flagged first, the verification results, a highlighted diff.
//
// The card, the remember chooser and the review screen never answer
// anything themselves: they return the person's decision as a typed message
// (ApproveMsg, DenyMsg, RememberMsg, ReviewVerdictMsg, decisions.go) and the
// root applies it to its broker, the one place an answer leaves the TUI —
// on the Prompt for the approval broker, once on the ReviewRequest's Answer
// channel for a review. A card or review that just opened ignores keys for
// Options.Guard, so a keystroke in flight cannot answer it.
//
// Every mode's keys are one table (keytable.go; keys_*.go): a row is a
// binding, what it does, why it is disabled now, and where it shows; the
// dispatch, the help overlay, the footers and the key rows are read from
// the tables, so no key is handled undocumented or documented dead.
//
// Keys reach the coder only in attach mode (and the emulator's answers to the
// coder's terminal queries); answering a card never does. Update does no I/O:
// Session calls that do (Stop, Steer, ResizeCoder, PastRequests) run in
// tea.Cmds, and bytes for the coder go out through one ordered writer.
//
// It must not reach into runner internals, and the approvals it shows are
// decided elsewhere: it only passes the person's answer back.
package tui
