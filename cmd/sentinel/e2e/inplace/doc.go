// Package inplace holds end-to-end tests of the sentinel binary: sentinel
// exec in place on the person's files: escapes, undo, identity, denials.
// Which tests go where, and where the shared helpers are
// (cmd/sentinel/internal/e2etest): ../README.md.
package inplace
