// Package supervisor holds end-to-end tests of the sentinel binary: the
// supervisor and its roles against a fake model, the coder's preflight,
// walk-away runs, the person's toolchains, stops, a killed landing and a
// full disk. Which tests go where, and where the shared helpers are
// (cmd/sentinel/internal/e2etest): ../README.md.
package supervisor
