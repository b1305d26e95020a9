package crush

import "github.com/sentinelhq/sentinel/runner/hooks"

// HookName is the name Crush's hooks go by: `sentinel hook crush`.
const HookName = "crush"

// HookDialect is Crush's hook language: the shared payload, answered
// {"decision": "allow"|"deny", "reason": …} (hooks.DecisionReason).
var HookDialect = hooks.DecisionReason(HookName)
