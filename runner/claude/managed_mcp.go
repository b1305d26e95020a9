package claude

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// ManagedMCPPath is where Claude Code on Linux reads the administrator's
// MCP servers (managed-mcp.json: when it exists, the only servers Claude
// Code loads). In the sandbox /etc is readable, so the host's file reaches
// a run as it is, and Claude Code would start its stdio servers directly,
// in its own Landlock domain, from which a server could stop or kill the
// hooks.
const ManagedMCPPath = "/etc/claude-code/managed-mcp.json"

// hostManagedMCP is the host's managed-mcp.json, a variable for the tests.
var hostManagedMCP = ManagedMCPPath

// scopedManagedMCP writes to file the host's managed-mcp.json with each
// stdio server starting through the system shell (agentutil.
// ScopeCommandServers), so that in place it enters a signal scope of its
// own, and reports whether there was one: the run then shows file at
// ManagedMCPPath (a sandbox place, read-only) instead of the host's,
// which is never written. A host file that cannot be read, or does not
// read as JSON, fails the run rather than reach it unscoped, with one line
// naming the file and the fix.
func scopedManagedMCP(file string) (bool, error) {
	if _, err := os.Lstat(hostManagedMCP); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	b, err := os.ReadFile(hostManagedMCP)
	if err != nil {
		why := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err
		}
		return false, fmt.Errorf("cannot read the host's managed MCP servers %s (%v): Sentinel must rewrite its servers to start them in the sandbox's scope, so the run stops here; make it readable to you (sudo chmod a+r %s, and a+x on its folder) or have it moved away", hostManagedMCP, why, hostManagedMCP)
	}
	cfg := map[string]any{}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return false, fmt.Errorf("the host's managed MCP servers %s is not a JSON object (%v): fix it or move it away", hostManagedMCP, err)
	}
	if servers, ok := cfg["mcpServers"].(map[string]any); ok {
		agentutil.ScopeCommandServers(servers)
	}
	if err := writeJSON(file, cfg); err != nil {
		return false, fmt.Errorf("write claude's managed MCP servers: %w", err)
	}
	return true, nil
}
