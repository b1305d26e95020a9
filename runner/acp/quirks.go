package acp

import (
	"strconv"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// What individual ACP agents need beyond the protocol, each with the
// version it was seen in.

// ReadDelegation says whether to offer the agent fs/read_text_file. Gemini
// CLI (0.61) cannot take a missing file from the client: any error, however
// phrased, fails write_file on a new file ("Error checking existing file").
// It reads the workspace itself, inside the sandbox, and still hands every
// write to Sentinel.
func (a *Adapter) ReadDelegation() bool { return !a.guest.NoReadDelegation }

// Gemini is what Gemini CLI (0.61) needs over ACP beyond the protocol
// (runner/geminicli's entry names it; its in-place adapter shares these
// pieces): its settings made to ask first, its workspace trusted only when
// its .gemini/ is hidden (mcp.go), and no read delegation.
var Gemini = coder.ACPGuest{
	Env: func(_ []string, trusted bool) []string { return GeminiEnv(trusted) },
	PrepareHome: func(home, runHome, whereAmI string, gate *coder.MCPGate) ([]string, []string, error) {
		return PrepareGeminiHome(home, runHome, whereAmI, gate, nil)
	},
	Contain:          containGemini,
	NoReadDelegation: true,
}

// GeminiEnv keeps Gemini CLI (0.61) asking Sentinel first. An untrusted
// workspace ignores the repository's .gemini/settings.json (whose
// tools.allowed and approval mode would let commands run without a
// permission request), whatever the person's trustedFolders.json or
// folderTrust setting says; but it starts no MCP server either. The
// workspace is trusted only when its .gemini/ is hidden inside the sandbox
// (see mcp.go); then the system settings paths are fixed to Linux's own, so
// nothing else can point Gemini at settings of its own.
func GeminiEnv(trusted bool) []string {
	env := []string{"GEMINI_CLI_TRUST_WORKSPACE=" + strconv.FormatBool(trusted)}
	if trusted {
		env = append(env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH="+geminiSystemSettings, "GEMINI_CLI_SYSTEM_DEFAULTS_PATH="+geminiSystemDefaults)
	}
	return env
}

// geminiSystemSettings and geminiSystemDefaults are Gemini CLI's system
// settings files on Linux: the host administrator's, which Sentinel leaves
// as they are (they outrank the person's, and the coder cannot write them).
const (
	geminiSystemSettings = "/etc/gemini-cli/settings.json"
	geminiSystemDefaults = "/etc/gemini-cli/system-defaults.json"
)
