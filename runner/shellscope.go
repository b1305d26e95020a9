package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/shellscope"
	"github.com/sentinelhq/sentinel/sandbox"
)

// scopedAgents are the agents whose commands, in place, each run in a
// signal scope of their own (internal/shellscope): every agent whose hook
// is the gate. Codex's and Claude Code's hooks run under runner/hookclient's
// guard, which a command could otherwise kill or stop before the next
// call's hook answers; Gemini CLI lets a call run when its hook's shell is
// killed; opencode's plugin blocks on a killed hook, but a command could
// still stop or kill opencode itself and every hook.
var scopedAgents = []string{"codex", "claude", "gemini", "opencode"}

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
		r.emit(journal.System, KindNotice, fmt.Sprintf("in place: this kernel's Landlock (ABI %d, the signal scope needs %d) cannot keep %s's commands from signalling its hooks: a command that kills or stops the hook's guard gets the next call run, which the bypass watch then stops the run for; nor from writing its transcripts and sessions, which come back into your home at the end", abi, shellscope.ScopeABI, r.adapter.Name()), nil)
		return prof
	}
	wrapper, err := helperbin.Path()
	if err != nil {
		r.emit(journal.System, KindNotice, "in place: no shell wrapper ("+err.Error()+"); commands are not kept from signalling the hooks, nor from writing the agent's transcripts and sessions", nil)
		return prof
	}
	wrapped := map[string]bool{}
	for _, pl := range shellscope.Places(wrapper) {
		prof.Places = append(prof.Places, sandbox.Place{Path: pl.Path, Source: pl.Source})
		wrapped[pl.Path] = pl.Source == wrapper
	}
	prof = r.agentShellsInScope(prof, wrapper, wrapped) // agentshells.go
	return r.keepAgentState(r.shellInScope(prof, wrapped))
}

// shellInScope makes sure the shell Claude Code or opencode starts its
// commands with ($SHELL) is one the wrapper covers: a person whose $SHELL
// is not a bash, zsh or sh (fish, ksh; agentShellsInScope covers those
// kinds wherever they are) would otherwise get no scope and no word of it.
// Such a run's commands use /bin/bash, and its journal says so. Codex
// starts its commands with its passwd shell when that is a bash, zsh or sh
// (covered by agentShellsInScope), else with the bash on PATH (covered);
// Gemini CLI with the bash on PATH (covered).
func (r *containment) shellInScope(prof sandbox.Profile, wrapped map[string]bool) sandbox.Profile {
	if name := r.adapter.Name(); name != "claude" && name != "opencode" {
		return prof
	}
	sh := os.Getenv("SHELL")
	for _, kv := range prof.Env {
		if v, ok := strings.CutPrefix(kv, "SHELL="); ok {
			sh = v
		}
	}
	if sh != "" {
		if real, err := filepath.EvalSymlinks(sh); err == nil && wrapped[real] {
			return prof
		}
	}
	bash, err := filepath.EvalSymlinks("/bin/bash")
	if err != nil || !wrapped[bash] {
		r.emit(journal.System, KindNotice, fmt.Sprintf("in place: your SHELL (%q) is not a shell Sentinel can keep in a signal scope and there is no /bin/bash to use instead: commands are not kept from signalling the hooks", sh), nil)
		return prof
	}
	prof.Env = append(prof.Env, "SHELL=/bin/bash")
	if sh == "" {
		return prof // the agent would look for a bash itself
	}
	r.emit(journal.System, KindNotice, fmt.Sprintf("in place: your SHELL (%q) is not a shell Sentinel can keep in a signal scope, so %s's commands run with /bin/bash", sh, r.adapter.Name()), nil)
	return prof
}
