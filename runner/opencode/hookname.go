package opencode

import "github.com/sentinelhq/sentinel/runner/opencode/opencodehook"

// HookName is the name opencode's hook goes by: `sentinel hook opencode`.
// The dialect itself is opencodehook.HookDialect, in a package of its own so
// that a hook links none of this adapter.
const HookName = opencodehook.HookName
