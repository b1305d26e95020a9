// Package runs holds end-to-end tests of the sentinel binary: sentinel run
// and what follows it with the demo or a scripted coder: gates, review,
// landing and recovery. The hostile-coder suite, re-run as an unprivileged
// user, is in e2e/hostile, a package of its own so the two run in parallel.
// Which tests go where, and where the shared helpers are
// (cmd/sentinel/internal/e2etest): ../README.md.
package runs
