// Package geminihook owns Gemini CLI's hook dialect (`sentinel hook gemini`):
// BeforeTool, AfterTool and Notification payloads in the shared hook shape
// (runner/hooks), answered {"decision": "allow"|"deny", "reason"}.
//
// Gemini CLI as Sentinel's coder is driven over ACP (`gemini --acp`) by
// runner/acp, with what it needs beyond the protocol from its folder
// (runner/geminicli); in place (`sentinel exec -- gemini`) runner/geminicli
// starts it with these hooks
// (and wraps them so that a failed hook is a deny). This package is only
// what its own hooks say and how they are answered. It
// must stay light (a hook runs on every tool call) and decide nothing.
package geminihook
