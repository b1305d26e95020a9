// Package runs holds end-to-end tests of the sentinel binary: sentinel run
// and what follows it with the demo or a scripted coder: gates, review,
// landing, records, recovery, trust, and the hostile-coder suite (re-run as
// an unprivileged user). Which tests go where, and how helpers_test.go
// reaches the shared helpers (cmd/sentinel/internal/e2etest): ../README.md.
package runs
