package acp

import (
	"path/filepath"
	"strconv"
)

// What individual ACP agents need beyond the protocol, each with the
// version it was seen in.

// ReadDelegation says whether to offer the agent fs/read_text_file. Gemini
// CLI (0.61) cannot take a missing file from the client: any error, however
// phrased, fails write_file on a new file ("Error checking existing file").
// It reads the workspace itself, inside the sandbox, and still hands every
// write to Sentinel.
func (a *Adapter) ReadDelegation() bool { return !a.isGemini() }

func (a *Adapter) isGemini() bool { return filepath.Base(a.argv[0]) == "gemini" }

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

// opencodeLocal is where `opencode acp` serves its own HTTP API, which its
// ACP side calls. opencode (1.18) sends even those calls through
// HTTP_PROXY, and the sandbox's proxy refuses them ("OpenCode service
// failure", service "directory", on session/new); NO_PROXY for this name
// keeps them on the sandbox's own loopback (its network namespace has
// nothing else there) while the model's traffic to 127.0.0.1:PORT still
// goes through Sentinel's proxy.
const opencodeLocal = "localhost"

// isOpencodeACP says whether the command is `opencode acp …`.
func (a *Adapter) isOpencodeACP() bool {
	return len(a.argv) >= 2 && filepath.Base(a.argv[0]) == "opencode" && a.argv[1] == "acp"
}

// opencodeEnv keeps every action of opencode (1.18) asking Sentinel first.
// Its default is to allow them without asking, so nothing would reach
// Sentinel: OPENCODE_PERMISSION is merged over the global permissions of
// every config file. A repository's own settings (opencode.json,
// .opencode/) can still allow per agent, which outranks that, so they are
// not read at all; this also drops the repository's AGENTS.md from
// opencode's instructions.
var opencodeEnv = []string{"OPENCODE_PERMISSION=" + opencodeAsk, "OPENCODE_DISABLE_PROJECT_CONFIG=1"}

// opencodeAsk is the permission every acting tool of opencode gets.
const opencodeAsk = `{"bash":"ask","edit":"ask","webfetch":"ask","websearch":"ask","codesearch":"ask","external_directory":"ask"}`
