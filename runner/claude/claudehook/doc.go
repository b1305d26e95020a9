// Package claudehook is Claude Code's hook dialect (hooks.Dialect), beside
// its adapter (runner/claude) but a package of its own: `sentinel hook
// claude` runs on every tool call and must link none of the adapter.
package claudehook
