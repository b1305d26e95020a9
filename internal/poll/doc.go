// Package poll waits, for tests, on a condition that another goroutine or
// process brings about: a file appears, a journal gains an event, a
// process ends. Every wait has a deadline, and the deadline only turns a
// hang into a failure; it is never a speed check (the machine running the
// tests may be loaded), and a test never sleeps a fixed time instead of
// waiting on what it means (internal/archdoc's TestNoTestSleeps holds the
// tree to that).
//
// It must not import testing (it is linked only into tests, but the bound
// is the caller's, through TB).
package poll
