// Package runs holds end-to-end tests of the sentinel binary: sentinel run
// and what follows it with the demo or a scripted coder: gates, review,
// landing, recovery, and the model gates that cannot answer (re-run as an
// unprivileged user). The rest of the hostile-coder suite is in e2e/hostile,
// a package of its own so the two run in parallel. Which tests go where, and
// how helpers_test.go reaches the shared helpers
// (cmd/sentinel/internal/e2etest): ../README.md.
package runs
