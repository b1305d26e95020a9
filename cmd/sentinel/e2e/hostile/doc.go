// Package hostile holds the hostile-coder end-to-end tests of sentinel run:
// a coder that plants Sentinel's state, run records or project config,
// forges reports, writes run-later files, links out of the project or lands
// over the size limit, and model gates that answer garbage or nothing. Each
// runs twice, as root and as the unprivileged CI user
// (TestHostileSuiteUnprivileged). It was split from e2e/runs so the two run
// in parallel. Which tests go where, and where the shared helpers are
// (cmd/sentinel/internal/e2etest): ../README.md.
package hostile
