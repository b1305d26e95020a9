package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/codex"
)

// sandboxAgentHistory keeps, for `sentinel sandbox run --agent`, the
// agent's own history for the directory it works in, as direct use and
// sentinel exec do: seeded into the per-run home before, and what it added
// copied back after (agentutil.KeptState). nil for an agent whose history
// Sentinel does not keep.
func sandboxAgentHistory(agent, home, runHome, dir string) (*agentutil.KeptState, error) {
	switch agent {
	case "claude":
		return claude.KeepHistory(claude.PersonalDir(home), filepath.Join(runHome, ".claude"), dir)
	case "codex":
		return codex.KeepHistory(codex.PersonDir(os.Getenv, home), filepath.Join(runHome, ".codex"), dir)
	}
	return nil, nil
}

// writeBackHistory copies the run's history back and says what was not kept.
func writeBackHistory(k *agentutil.KeptState) {
	if k == nil {
		return
	}
	if notes := k.WriteBack(); len(notes) > 0 {
		fmt.Fprintln(os.Stderr, "sentinel: agent history: "+strings.Join(notes, "; "))
	}
}
