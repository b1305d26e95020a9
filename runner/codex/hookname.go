package codex

import "github.com/sentinelhq/sentinel/runner/codex/codexhook"

// HookName is the name Codex's hooks go by: `sentinel hook codex`. The
// dialect itself is codexhook.HookDialect, in a package of its own so that a
// hook links none of this adapter.
const HookName = codexhook.HookName
