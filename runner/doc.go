// Package runner owns a Run: the project checks, the disposable workspace
// (a snapshot of HEAD plus the person's uncommitted changes), the coder
// adapters (the demo coder and any command under a pty; Claude Code through
// its hooks; Codex app-server and ACP agents over JSON-RPC in runner/codex
// and runner/acp), the journal, the supervisor's gates and the person's
// messages through it, the patch computed with hardened git, landing, and
// recovery.
//
// A coder that never did the work is a failed run, not an empty landing:
// each adapter says when its agent's turn failed (CoderFailed, with the
// agent's own error, journaled as system "coder-failed" {coder, reason,
// exit_code}), and a failed coder never goes to a completion gate.
//
// It must not draw anything: views read its event stream. The kinds it
// journals and their payloads are in events.go (typed constants, payload
// types and decoders such as AsRunEnd); views switch on those, never on an
// event's text.
package runner
