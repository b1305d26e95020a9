// Package inplace holds end-to-end tests of the sentinel binary: sentinel exec in place on the person's files: escapes, undo, identity, denials.
// Helpers are reached through helpers_test.go (see ../README.md).
package inplace
