// Package claude holds end-to-end tests of the sentinel binary: runs with the real Claude Code CLI against a fake Messages API, its MCP server and shims.
// Helpers are reached through helpers_test.go (see ../README.md).
package claude
