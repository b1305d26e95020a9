package service

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/runner/agents"
)

// scopeRoot, when set, limits the scanner to agents whose program (the
// executable, or an interpreter's script) lies under it. Only test builds
// set it (SetTestScope): a test's service must not end the agents
// other tests on the same machine run. The shipped binary scans everything.
var scopeRoot string

// inScope says whether p's program is one the scanner may consider.
func inScope(p *Proc) bool {
	if scopeRoot == "" {
		return true
	}
	paths := []string{p.Exe, agents.Script(p.Exe, p.Argv)}
	for _, path := range paths {
		if path != "" && filepath.IsAbs(path) && strings.HasPrefix(filepath.Clean(path), scopeRoot+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
