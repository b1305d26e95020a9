// Package tmux holds end-to-end tests of the sentinel binary: the TUI under tmux without an agent CLI (cards, remember, relay, signals, hang-up), the console and the approval queue.
// Helpers are reached through helpers_test.go (see ../README.md).
package tmux
