package geminicli

import (
	"strconv"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// acpGuest is what Gemini CLI (0.61) needs over ACP beyond the protocol
// (`sentinel run --coder acp -- gemini --acp`; runner/acp applies it
// through Agent.ACP, and the in-place adapter shares its pieces): its
// settings made to ask first (settings.go), its workspace trusted only when
// its .gemini/ is hidden (acp_mcp.go), its relaunch choice passed, and no
// read delegation: Gemini CLI cannot take a missing file from the client
// (any error, however phrased, fails write_file on a new file: "Error
// checking existing file"), so it reads the workspace itself, inside the
// sandbox, and still hands every write to Sentinel.
var acpGuest = coder.ACPGuest{
	Env: func(_ []string, trusted bool) []string { return trustEnv(trusted) },
	PrepareHome: func(home, runHome, whereAmI string, gate *coder.MCPGate) ([]string, []string, error) {
		return prepareHome(home, runHome, whereAmI, gate, nil)
	},
	Contain:          containACP,
	PassEnv:          []string{noRelaunch},
	NoReadDelegation: true,
}

// noRelaunch is the person's choice that Gemini CLI run as one node
// process rather than relaunch itself with a larger heap (it only saves a
// start's CPU).
const noRelaunch = "GEMINI_CLI_NO_RELAUNCH"

// trustEnv keeps Gemini CLI (0.61) asking Sentinel first. An untrusted
// workspace ignores the repository's .gemini/settings.json (whose
// tools.allowed and approval mode would let commands run without a
// permission request), whatever the person's trustedFolders.json or
// folderTrust setting says; but it starts no MCP server either. The
// workspace is trusted only when its .gemini/ is hidden inside the sandbox
// (see acp_mcp.go); then the system settings paths are fixed to Linux's own, so
// nothing else can point Gemini at settings of its own.
func trustEnv(trusted bool) []string {
	env := []string{"GEMINI_CLI_TRUST_WORKSPACE=" + strconv.FormatBool(trusted)}
	if trusted {
		env = append(env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH="+SystemSettings, "GEMINI_CLI_SYSTEM_DEFAULTS_PATH="+geminiSystemDefaults)
	}
	return env
}

// geminiSystemDefaults is, beside SystemSettings, Gemini CLI's system
// defaults file on Linux: the host administrator's, which Sentinel leaves
// as it is (the coder cannot write it).
const geminiSystemDefaults = "/etc/gemini-cli/system-defaults.json"
