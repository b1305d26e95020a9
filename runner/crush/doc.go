// Package crush owns Crush's hook dialect (`sentinel hook crush`):
// PreToolUse payloads in the shared, Claude-compatible hook shape
// (runner/hooks), answered {"decision": "allow"|"deny", "reason"}.
//
// Sentinel has no Crush adapter that runs it as the coder; this dialect
// serves a person who routes their own Crush's hooks to Sentinel. It must
// stay light (a hook runs on every tool call) and decide nothing.
package crush
