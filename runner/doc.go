// Package runner owns a Run: the project checks, the disposable workspace
// (a snapshot of HEAD plus the person's uncommitted changes), the coder
// adapters (the built-in demo coder first) under a pty, the journal, the
// patch computed with hardened git, landing, and recovery.
//
// It must not draw anything: views read its event stream.
package runner
