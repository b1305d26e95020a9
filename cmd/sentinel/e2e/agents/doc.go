// Package agents holds end-to-end tests of the sentinel binary: runs with the real Codex, Gemini CLI and opencode (ACP) against fake model APIs, in run and exec.
// Helpers are reached through helpers_test.go (see ../README.md).
package agents
