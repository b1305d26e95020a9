// Package norace lets a test binary built with -race (the suite's command,
// `go test -race ./...`) run its chosen CPU-heavy tests in one child `go
// test` of the same package built without -race, and make each child
// test's result the parent test's own (issue 33: the suite in minutes on 2
// cores). It is for tests that are pure computation on code whose
// concurrency other tests already check under -race: the detector finds
// nothing there and makes them several times as slow. The child is not
// vetted again (the parent's go test vetted the same files), and its
// collector is paced for sweeps that allocate much and keep little (gc.go).
//
// It must not be imported by non-test code.
package norace
