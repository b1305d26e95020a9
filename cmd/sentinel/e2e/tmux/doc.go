// Package tmux holds end-to-end tests of the sentinel binary: the TUI under
// tmux without an agent CLI (cards, remember, relay, signals, hang-up), the
// console and the approval queue. Which tests go where, and where the
// shared helpers are (cmd/sentinel/internal/e2etest): ../README.md.
package tmux
