package opencode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/mcpgate"
)

// What `opencode acp` (1.18) needs beyond the protocol under `sentinel run
// --coder acp` (runner/acp applies it through Agent.ACP): its own API kept
// off the proxy, every action asking Sentinel first, and the person's
// logins, config, instructions and MCP servers in the per-run home.
var acpGuest = coder.ACPGuest{Argv: acpArgv, Env: acpEnv, PrepareHome: prepareACPHome}

// acpLocal is where `opencode acp` serves its own HTTP API, which its ACP
// side calls. opencode (1.18) sends even those calls through HTTP_PROXY,
// and the sandbox's proxy refuses them ("OpenCode service failure",
// service "directory", on session/new); NO_PROXY for this name keeps them
// on the sandbox's own loopback (its network namespace has nothing else
// there) while the model's traffic to 127.0.0.1:PORT still goes through
// Sentinel's proxy.
const acpLocal = "localhost"

// isACP says whether argv is `opencode acp …`.
func isACP(argv []string) bool {
	return len(argv) >= 2 && filepath.Base(argv[0]) == "opencode" && argv[1] == "acp"
}

// acpArgv gives `opencode acp` --hostname localhost unless it was given
// one (see acpLocal).
func acpArgv(argv []string) []string {
	if !isACP(argv) {
		return argv
	}
	for _, arg := range argv[2:] {
		if arg == "--hostname" || strings.HasPrefix(arg, "--hostname=") {
			return argv
		}
	}
	return append([]string{argv[0], argv[1], "--hostname", acpLocal}, argv[2:]...)
}

// acpEnv keeps every action of opencode (1.18) asking Sentinel first. Its
// default is to allow them without asking, so nothing would reach
// Sentinel: OPENCODE_PERMISSION is merged over the global permissions of
// every config file. A repository's own settings (opencode.json,
// .opencode/) can still allow per agent, which outranks that, so they are
// not read at all; this also drops the repository's AGENTS.md from
// opencode's instructions.
func acpEnv(argv []string, _ bool) []string {
	if !isACP(argv) {
		return nil
	}
	return []string{"NO_PROXY=" + acpLocal, "no_proxy=" + acpLocal,
		"OPENCODE_PERMISSION=" + acpAsk, "OPENCODE_DISABLE_PROJECT_CONFIG=1"}
}

// acpAsk is the permission every acting tool of opencode gets.
const acpAsk = `{"bash":"ask","edit":"ask","webfetch":"ask","websearch":"ask","codesearch":"ask","external_directory":"ask"}`

// Relative to the person's home and the run's.
const (
	acpConfig   = configDir + "/opencode.json"
	acpRules    = configDir + "/AGENTS.md" // their global instructions
	acpWhereAmI = configDir + "/" + whereAmI
)

// prepareACPHome fills the per-run home runHome from the person's home: a
// copy of their logins, their config made to ask first (ForceACPConfig),
// their global instructions, and Sentinel's where-am-I text, which the
// config's "instructions" names.
func prepareACPHome(home, runHome, whereAmIText string, gate *coder.MCPGate) (protected, notes []string, err error) {
	if home != "" {
		if err := agentutil.CopyPrivate(filepath.Join(home, authFile), filepath.Join(runHome, authFile)); err != nil {
			return nil, nil, fmt.Errorf("copy ~/%s into the run: %w", authFile, err)
		}
	}
	var oc map[string]any
	if home != "" {
		if oc, err = agentutil.ReadJSONC(filepath.Join(home, acpConfig)); err != nil {
			return nil, nil, fmt.Errorf("acp: your opencode config: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(runHome, configDir), 0o700); err != nil {
		return nil, nil, err
	}
	where := ""
	if strings.TrimSpace(whereAmIText) != "" {
		where = filepath.Join(runHome, acpWhereAmI)
		if err := os.WriteFile(where, []byte(whereAmIText+"\n"), 0o600); err != nil {
			return nil, nil, fmt.Errorf("acp: write the run's instructions for opencode: %w", err)
		}
		protected = append(protected, where)
	}
	if oc != nil || where != "" {
		forced, ocNotes := ForceACPConfig(oc, where, gate)
		notes = append(notes, ocNotes...)
		if err := agentutil.WriteJSON(filepath.Join(runHome, acpConfig), forced); err != nil {
			return nil, nil, fmt.Errorf("acp: write the run's opencode config: %w", err)
		}
		protected = append(protected, filepath.Join(runHome, acpConfig))
	}
	if home != "" {
		if err := agentutil.CopyPrivate(filepath.Join(home, acpRules), filepath.Join(runHome, acpRules)); err != nil {
			return nil, nil, fmt.Errorf("acp: copy ~/%s into the run: %w", acpRules, err)
		}
	}
	return protected, notes, nil
}

// ForceACPConfig makes a person's opencode (1.18) config ask Sentinel
// before every action while keeping their providers, model, MCP servers
// and instructions: the global permission is "ask" for every tool, every
// agent's and mode's own permission (which outranks the global one) is
// dropped, and plugins (code in opencode's process that can answer
// permission requests) are not loaded. opencode's permission settings do
// not cover MCP tools (upstream issue anomalyco/opencode#6892), so the
// person's stdio MCP servers run behind gate (gateMCP) and every other
// server is disabled; with no gate, all of them are. whereAmI, when set, is
// the path of Sentinel's instructions file, added to "instructions". It
// returns the config and a note for each server kept off.
func ForceACPConfig(m map[string]any, whereAmI string, gate *coder.MCPGate) (map[string]any, []string) {
	if m == nil {
		m = map[string]any{}
	}
	delete(m, "plugin")
	var ask map[string]any
	_ = json.Unmarshal([]byte(acpAsk), &ask)
	m["permission"] = ask
	notes := gateMCP(m, gate)
	for _, key := range []string{"agent", "mode"} {
		if agents, ok := m[key].(map[string]any); ok {
			for _, a := range agents {
				if t, ok := a.(map[string]any); ok {
					delete(t, "permission")
					delete(t, "tools")
				}
			}
		}
	}
	if whereAmI != "" {
		var ins []any
		if old, ok := m["instructions"].([]any); ok {
			ins = append(ins, old...)
		}
		m["instructions"] = append(ins, whereAmI)
	}
	return m, notes
}

// gateMCP rewrites opencode's "mcp" servers in place: each local server
// with a command runs behind the gate (enabled as the person set it),
// every other server is disabled. It returns a note per server kept off.
func gateMCP(m map[string]any, g *coder.MCPGate) []string {
	var notes []string
	agentutil.EachObject(m, "mcp", func(name string, s map[string]any) bool {
		argv, local := agentutil.StringList(s["command"])
		if g == nil || s["type"] != "local" || !local || len(argv) == 0 {
			if s["enabled"] != false {
				notes = append(notes, offNote(name, s, g))
			}
			s["enabled"] = false
			return true
		}
		s["command"] = agentutil.AnyList(mcpgate.Command(g.Sentinel, g.Socket, "opencode", name, argv))
		return true
	})
	return notes
}

func offNote(name string, s map[string]any, g *coder.MCPGate) string {
	why := mcpgate.NoCommand
	if g == nil {
		why = mcpgate.NoGate
	} else if u, ok := s["url"].(string); ok && u != "" {
		why = mcpgate.Remote
	}
	return mcpgate.KeptOff("opencode", name, why)
}
