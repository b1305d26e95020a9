// Package dialects is the one registry of agent hook dialects: the name
// `sentinel hook <agent>` takes, to the Dialect beside that agent's adapter
// (runner/claude/claudehook, runner/codex/codexhook, runner/gemini, runner/opencode/opencodehook,
// runner/crush). Adding an agent is its Dialect in its own folder and one
// line here.
//
// It imports only the dialects' packages, never an adapter's: a hook runs
// on every tool call (imports_test.go keeps it so).
package dialects

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/runner/claude/claudehook"
	"github.com/sentinelhq/sentinel/runner/codex/codexhook"
	"github.com/sentinelhq/sentinel/runner/crush"
	"github.com/sentinelhq/sentinel/runner/geminicli/geminihook"
	"github.com/sentinelhq/sentinel/runner/hooks"
	"github.com/sentinelhq/sentinel/runner/opencode/opencodehook"
)

// all are the dialects, in the order help and errors name them.
var all = []hooks.Dialect{claudehook.HookDialect, codexhook.HookDialect, geminihook.HookDialect, opencodehook.HookDialect, crush.HookDialect}

// All are the dialects, in the order help and errors name them.
func All() []hooks.Dialect { return append([]hooks.Dialect(nil), all...) }

// Names are the adapter names `sentinel hook` takes.
func Names() []string {
	names := make([]string, len(all))
	for i, d := range all {
		names[i] = d.Name()
	}
	return names
}

// Lookup is the dialect named name, or an error naming the known ones.
func Lookup(name string) (hooks.Dialect, error) {
	for _, d := range all {
		if d.Name() == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown hook adapter %q (want %s)", name, orList(Names()))
}

// orList is "a, b, c or d".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
