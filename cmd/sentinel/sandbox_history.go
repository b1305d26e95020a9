package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/agents"
)

// sandboxAgentHistory keeps, for `sentinel sandbox run --agent`, the
// agent's own history for the directory it works in, as direct use and
// sentinel exec do: seeded into the per-run home before, and what it added
// copied back after (agentutil.KeptState). nil for an agent whose history
// Sentinel does not keep (its registry entry has no History).
func sandboxAgentHistory(agent, home, runHome, dir string) (*agentutil.KeptState, error) {
	if a := agents.Lookup(agent); a != nil && a.History != nil {
		return a.History(home, runHome, dir)
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
