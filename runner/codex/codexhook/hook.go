package codexhook

import (
	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/runner/claude/claudehook"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// HookName is the name Codex's hooks go by: `sentinel hook codex`.
const HookName = "codex"

// HookDialect is Codex's hook language: Claude-shaped hooks (the shared
// payload shape, with commands often an argv like ["bash","-lc",SCRIPT])
// answered in Claude Code's format (claudehook.HookAnswer). Codex has no way
// to take a note with a tool's result. The runner drives Codex through
// app-server, not hooks (its config.toml turns hooks off); this dialect
// serves a person who routes their own Codex's hooks to Sentinel.
var HookDialect hooks.Dialect = dialect{}

type dialect struct{}

func (dialect) Name() string { return HookName }

func (dialect) Parse(payload []byte) (hooks.Event, error) { return hooks.Read(HookName, payload) }

func (dialect) Answer(ev hooks.Event, d wire.Decision) hooks.Answer {
	return claudehook.HookAnswer(ev, d)
}

func (dialect) Note(hooks.Event, string) []byte { return nil }
