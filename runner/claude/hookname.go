package claude

import "github.com/sentinelhq/sentinel/runner/claude/claudehook"

// HookName is the name Claude Code's hooks go by: `sentinel hook claude`.
// The dialect itself is claudehook.HookDialect, in a package of its own so
// that a hook links none of this adapter.
const HookName = claudehook.HookName
