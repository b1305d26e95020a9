// Package codexhook is Codex's hook dialect (hooks.Dialect), beside its
// adapter (runner/codex) but a package of its own: `sentinel hook codex`
// runs on every tool call and must link none of the adapter.
package codexhook
