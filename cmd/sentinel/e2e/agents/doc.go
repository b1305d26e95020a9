// Package agents holds end-to-end tests of the sentinel binary: runs with
// the real Gemini CLI and opencode (ACP and its plugin) against fake model
// APIs, in run and exec. Every test is t.Parallel: each waits on an agent
// CLI and its own fake model, sharing nothing with the others; checks that need one agent in one setup
// share its session, each a subtest named for what it guards. Which tests
// go where, and where the shared helpers are
// (cmd/sentinel/internal/e2etest): ../README.md.
package agents
