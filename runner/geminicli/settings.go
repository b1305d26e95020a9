package geminicli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// What a person's own Gemini CLI setup brings into a run, in place (Prepare)
// and over ACP (acpGuest): the per-run home gets copies of their settings,
// logins and global instructions (GEMINI.md), rewritten so that their
// provider, model, MCP servers and instructions work while nothing in them
// can answer a permission request in Sentinel's place; and Sentinel's text
// about where the coder is, after their instructions. The person's files
// are only read.

// geminiSettings is the settings file, relative to home.
const geminiSettings = ".gemini/settings.json"

// geminiLogins are Gemini CLI's logins, copied into the per-run home as
// they are (the person's home itself is never readable in the sandbox).
var geminiLogins = []string{".gemini/oauth_creds.json", ".gemini/google_accounts.json"}

// geminiContext is Gemini CLI's global context file (relative to home)
// unless the person's context.fileName names others.
const geminiContext = ".gemini/GEMINI.md"

// readJSONC reads a settings file as Gemini CLI does (comments and
// trailing commas allowed); a missing file is nil, no error.
var readJSONC = agentutil.ReadJSONC

// section is m[key] as an object, made when missing (or not an object).
func section(m map[string]any, key string) map[string]any {
	s, ok := m[key].(map[string]any)
	if !ok {
		s = map[string]any{}
		m[key] = s
	}
	return s
}

// ForceSettings makes a person's Gemini CLI (0.61) settings ask
// Sentinel before every action, keeping the rest (auth, model, MCP servers,
// context file names): the default approval mode (not yolo or auto_edit),
// YOLO disabled, no tools.allowed or discovered/called commands, no
// remembered or policy-added approvals, no hooks, no policy files of their
// own, every MCP server untrusted, no workspace .env, and Gemini's own
// sandbox off (Sentinel's is the boundary).
func ForceSettings(m map[string]any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	for _, k := range []string{"hooks", "admin", "autoAccept", "allowedTools", "coreTools", "toolDiscoveryCommand", "toolCallCommand", "yolo",
		"policyPaths", "adminPolicyPaths"} {
		delete(m, k) // hooks, policy files (their rules can allow), and the legacy top-level names
	}
	// A trusted workspace's .env is not read (see acp_mcp.go).
	section(m, "advanced")["ignoreLocalEnv"] = true
	section(m, "general")["defaultApprovalMode"] = "default"
	tools := section(m, "tools")
	for _, k := range []string{"allowed", "autoAccept", "discoveryCommand", "callCommand", "approvalMode"} {
		delete(tools, k)
	}
	tools["sandbox"] = false
	sec := section(m, "security")
	sec["disableYoloMode"] = true
	sec["enablePermanentToolApproval"] = false
	sec["autoAddToPolicyByDefault"] = false
	section(m, "hooksConfig")["enabled"] = false
	// mcp.serverCommand starts a server of its own, which no gate wraps.
	if mcp, ok := m["mcp"].(map[string]any); ok {
		delete(mcp, "serverCommand")
	}
	if servers, ok := m["mcpServers"].(map[string]any); ok {
		for _, s := range servers {
			if t, ok := s.(map[string]any); ok {
				t["trust"] = false
			}
		}
	}
	return m
}

// prepareHome writes Gemini CLI's part of a per-run home abs from the
// person's home: their settings made to ask Sentinel first
// (ForceSettings), their stdio MCP servers behind gate (nil: as they
// are), then edit (nil: none) for what the caller drives Gemini by, and
// their global context files with whereAmI after the first, and copies of
// their logins (geminiLogins). It returns the files the
// coder must not change and notes on what was left out.
func prepareHome(home, abs, whereAmI string, gate *coder.MCPGate, edit func(map[string]any)) (protected, notes []string, err error) {
	if err := copyLogins(home, abs, geminiLogins); err != nil {
		return nil, nil, err
	}
	gs, err := readJSONC(pathIn(home, geminiSettings))
	if err != nil {
		return nil, nil, fmt.Errorf("gemini: your settings: %w", err)
	}
	if gs != nil || home != "" {
		gs = ForceSettings(gs)
		notes = append(notes, gateMCP(gs, gate)...)
		if servers, ok := gs["mcpServers"].(map[string]any); ok && gate == nil {
			// sentinel exec: each stdio server starts through the system
			// shell, so in place it enters a signal scope of its own
			// (agentutil.ScopeCommandServers) and cannot kill a hook's
			// shell, which Gemini CLI would take as leave to run the call.
			agentutil.ScopeCommandServers(servers)
		}
		if edit != nil {
			edit(gs)
		}
		if err := agentutil.WriteJSON(filepath.Join(abs, geminiSettings), gs); err != nil {
			return nil, nil, fmt.Errorf("gemini: write the run's settings: %w", err)
		}
		protected = append(protected, filepath.Join(abs, geminiSettings))
	}
	for _, name := range contextNames(gs) {
		rel := filepath.Join(".gemini", name)
		body, _ := readSmall(pathIn(home, rel))
		if name == filepath.Base(geminiContext) || len(body) > 0 {
			if strings.TrimSpace(whereAmI) != "" && name == contextNames(gs)[0] {
				body = appendSection(body, whereAmI)
			}
			if len(body) == 0 {
				continue
			}
			if err := os.WriteFile(filepath.Join(abs, rel), body, 0o600); err != nil {
				return nil, nil, fmt.Errorf("gemini: write the run's %s: %w", rel, err)
			}
			protected = append(protected, filepath.Join(abs, rel))
		}
	}
	return protected, notes, nil
}

// copyLogins copies each of files (relative to home) into abs as it is.
func copyLogins(home, abs string, files []string) error {
	if home == "" {
		return nil
	}
	for _, f := range files {
		if err := agentutil.CopyPrivate(filepath.Join(home, f), filepath.Join(abs, f)); err != nil {
			return fmt.Errorf("copy ~/%s into the run: %w", f, err)
		}
	}
	return nil
}

func pathIn(home, rel string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, rel)
}

func readSmall(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > 1<<20 {
		return nil, err
	}
	return os.ReadFile(path)
}

// appendSection is body with text after it, as a section of its own.
func appendSection(body []byte, text string) []byte {
	if len(body) > 0 && !strings.HasSuffix(string(body), "\n") {
		body = append(body, '\n')
	}
	if len(body) > 0 {
		body = append(body, '\n')
	}
	return append(body, "# Where you are (from Sentinel)\n\n"+text+"\n"...)
}

// contextNames are the context file names Gemini CLI reads from
// ~/.gemini: context.fileName (a name or a list) or GEMINI.md. Names with a
// path in them are skipped.
func contextNames(settings map[string]any) []string {
	var names []string
	if ctx, ok := settings["context"].(map[string]any); ok {
		switch v := ctx["fileName"].(type) {
		case string:
			names = append(names, v)
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					names = append(names, s)
				}
			}
		}
	}
	var out []string
	for _, n := range names {
		if n != "" && filepath.Base(n) == n && n != "." && n != ".." {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []string{filepath.Base(geminiContext)}
	}
	return out
}
