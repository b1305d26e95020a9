package geminicli

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/mcpgate"
)

// The person's own MCP servers under Sentinel, for Gemini CLI.
//
// Gemini CLI (0.61.0) asks before every MCP tool call of a server it does
// not trust (ForceSettings makes every server untrusted), and that
// permission request reaches Sentinel over ACP like any other. But it does
// not name the tool: its title is the tool's display name, or the call's
// own "command" argument when it has one — the model's word — so a rule
// or a person judging the title can be shown another tool. Each of the
// person's stdio servers therefore also runs behind the MCP gate, which
// asks again with the real mcp__<server>__<tool> and arguments: a call runs
// only when both answers allow it. (A person deciding by hand is asked
// twice about one call; a policy rule or remembered template for
// mcp__<server>__<tool> answers the gate's question.) Remote servers are
// kept off, as for opencode. But
// Gemini starts no MCP server in an untrusted workspace, and a trusted one
// loads the repository's .gemini/ (settings that outrank the person's,
// policies that allow tools, hooks, extensions, commands, a .env) — all
// written by whoever wrote the repository. So when the sandbox can hide a
// path inside the workspace (RunSetup.Contained: the Linux sandbox),
// .gemini/ in the workspace is hidden (an empty read-only directory inside
// the sandbox; made first when the repository has none, so the coder
// cannot add one either) and the workspace is trusted; the forced settings
// also ignore the workspace's .env (advanced.ignoreLocalEnv). Elsewhere the
// workspace stays untrusted and a system line says the person's MCP
// servers are not started.

// containACP (over ACP; Adapter.contain in place) hides the workspace's .gemini/ (making it first when
// missing) so the workspace can be trusted; it returns the path to hide,
// or "" with a note when it cannot be.
func containACP(runHome, workspace string, contained bool) (string, string) {
	personHasMCP := hasMCP(runHome)
	if !contained || workspace == "" {
		if personHasMCP {
			return "", "gemini: your MCP servers are not started: without the Linux sandbox Sentinel cannot hide the repository's .gemini settings from Gemini CLI, so the workspace stays untrusted (Gemini starts no MCP server there)"
		}
		return "", ""
	}
	dir := filepath.Join(workspace, projectDir)
	untrusted := "gemini: the workspace stays untrusted (your MCP servers are not started): "
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", untrusted + "make " + dir + ": " + err.Error()
		}
	case err != nil:
		return "", untrusted + err.Error()
	case !st.IsDir():
		// A symlink would hide where it points, not what Gemini reads.
		return "", untrusted + "the repository's " + projectDir + " is not a directory, so Sentinel cannot hide it"
	}
	return dir, ""
}

// hasMCP says whether the run's Gemini settings in home name MCP servers.
func hasMCP(home string) bool {
	s, err := readJSONC(filepath.Join(home, geminiSettings))
	if err != nil {
		return false
	}
	m, _ := s["mcpServers"].(map[string]any)
	return len(m) > 0
}

// gateMCP starts each of Gemini's stdio servers (those with a
// "command") behind the gate: the command becomes the sentinel binary and
// the server's own command and args go after `mcp-gate … --`. Every other
// server (remote: url, httpUrl) is removed with a note, as for opencode:
// only Gemini's title-named question would stand before its calls. Without
// a gate nothing changes (each call is still an ACP permission request,
// and MCP servers start only in a trusted workspace, which needs the gate's
// sandbox).
func gateMCP(m map[string]any, g *coder.MCPGate) []string {
	if g == nil {
		return nil
	}
	var notes []string
	agentutil.EachObject(m, "mcpServers", func(name string, s map[string]any) bool {
		command, _ := s["command"].(string)
		args, argsOK := agentutil.StringList(s["args"])
		if command == "" || (!argsOK && s["args"] != nil) {
			why := mcpgate.NoCommand
			if _, url := s["url"]; url {
				why = mcpgate.Remote
			} else if _, url := s["httpUrl"]; url {
				why = mcpgate.Remote
			}
			notes = append(notes, mcpgate.KeptOff("gemini", name, why))
			return false
		}
		argv := mcpgate.Command(g.Sentinel, g.Socket, "gemini", name, append([]string{command}, args...))
		s["command"], s["args"] = argv[0], agentutil.AnyList(argv[1:])
		return true
	})
	return notes
}
