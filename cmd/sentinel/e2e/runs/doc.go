// Package runs holds end-to-end tests of the sentinel binary: sentinel run and its afterlife with the demo or a scripted coder: gates, review, landing, records, recovery, supervisor, toolchains, the hostile-coder suite.
// Helpers are reached through helpers_test.go (see ../README.md).
package runs
