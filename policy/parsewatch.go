package policy

import "sync/atomic"

// parseWatch is the function WatchParses installed, or nil.
var parseWatch atomic.Pointer[func(text string)]

// WatchParses calls fn with the text of every parse of shell text this
// package makes (every reading, every walk, nested payloads included)
// until stop is called: tests and benchmarks count how often a decision
// reads its line. One watcher at a time; fn must be safe for concurrent
// use when Checks run concurrently.
func WatchParses(fn func(text string)) (stop func()) {
	parseWatch.Store(&fn)
	return func() { parseWatch.Store(nil) }
}

// noteParse tells the watcher, if any, that text is being parsed.
func noteParse(text string) {
	if fn := parseWatch.Load(); fn != nil {
		(*fn)(text)
	}
}
