package runner

import (
	"fmt"
	"slices"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/sandbox"
)

// scopedAgents are the agents whose commands, in place, each run in a
// signal scope of their own (internal/shellscope): those whose hook is the
// gate and runs under runner/hookclient's guard, which a command could
// otherwise kill or stop before the next call's hook answers.
var scopedAgents = []string{"codex", "claude"}

// scopeABI is the kernel's Landlock ABI; a variable so that a test can
// play an older kernel.
var scopeABI = shellscope.ABI

// withShellScope shows the shell wrapper over the system shells (and the
// real shells at shellscope.RealDir) for an in-place run of a scoped
// agent under the Linux sandbox. On a kernel without the signal scope the
// run goes on with the guard alone, and its journal says so.
func (r *containment) withShellScope(prof sandbox.Profile) sandbox.Profile {
	if !r.opts.InPlace || r.adapter == nil || !slices.Contains(scopedAgents, r.adapter.Name()) ||
		!sandbox.PlacesEnforced(r.opts.Sandbox.Mode) {
		return prof
	}
	if abi := scopeABI(); abi < shellscope.ScopeABI {
		r.emit(journal.System, KindNotice, fmt.Sprintf("in place: this kernel's Landlock (ABI %d, the signal scope needs %d) cannot keep %s's commands from signalling its hooks: a command that kills or stops the hook's guard gets the next call run, which the bypass watch then stops the run for", abi, shellscope.ScopeABI, r.adapter.Name()), nil)
		return prof
	}
	wrapper, err := helperbin.Path()
	if err != nil {
		r.emit(journal.System, KindNotice, "in place: no shell wrapper ("+err.Error()+"); commands are not kept from signalling the hooks", nil)
		return prof
	}
	for _, pl := range shellscope.Places(wrapper) {
		prof.Places = append(prof.Places, sandbox.Place{Path: pl.Path, Source: pl.Source})
	}
	return prof
}
