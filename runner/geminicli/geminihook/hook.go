package geminihook

import "github.com/sentinelhq/sentinel/runner/hooks"

// HookName is the name Gemini CLI's hooks go by: `sentinel hook gemini`.
const HookName = "gemini"

// HookDialect is Gemini CLI's hook language: the shared payload, answered
// {"decision": "allow"|"deny", "reason": …} (hooks.DecisionReason).
var HookDialect = hooks.DecisionReason(HookName)
