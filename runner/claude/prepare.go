package claude

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// Needs is what a run adds to its sandbox profile for Claude Code.
type Needs = agentutil.Needs

// RunPaths say where one run lives, for Prepare.
type RunPaths struct {
	Home      string // the person's home directory (read, never written)
	Workspace string // the coder's working directory
	// Source is where the workspace's files can be read on the host before
	// the coder starts (an overlay workspace's shared checkout); empty
	// means Workspace.
	Source string
	// Project is the person's real project root: their ~/.claude.json entry
	// for it (MCP servers, approvals) is given to the workspace.
	Project string
	// StateDir becomes the run's CLAUDE_CONFIG_DIR (see Options.ConfigDir).
	// It must be writable in the sandbox and outside the run directory the
	// profile makes read-only. Empty keeps Claude Code's state in home.
	StateDir string
	// PolicyDir is a directory the coder can never write (the run
	// directory): the managed policy is written there and shown at
	// ManagedSettingsPath.
	PolicyDir string
	// Placed says the sandbox will show Needs.Places (the Linux sandbox:
	// sandbox.PlacesEnforced). Without it, or without PolicyDir, no settings
	// file is read and the person's env, deny rules and instructions travel
	// on the command line instead (see Options.Managed).
	Placed bool
	// SystemPrompt tells the coder where it is (agentutil.WhereAmI).
	SystemPrompt string
	// APIKey, when set, is marked approved in the run's state so that
	// interactive Claude Code does not stop to ask whether to use it.
	APIKey string
	// KeepHistory (in place, where Workspace is the person's project):
	// Claude Code's sessions and history for it persist (history.go).
	KeepHistory bool
}

// Prepare readies Claude Code's state for one run (PrepareConfigDir into
// StateDir, the person's setup, the managed policy) and returns what the
// sandbox must allow. Call it once, after the workspace exists and before
// Argv and Env.
func (a *Adapter) Prepare(p RunPaths) (Needs, error) {
	a.opts.SystemPrompt = p.SystemPrompt
	a.workspace = p.Workspace
	var places map[string]string
	if p.StateDir != "" {
		a.opts.ConfigDir = p.StateDir
		if err := a.PrepareConfigDir(p.Home, p.Workspace, p.APIKey); err != nil {
			return Needs{}, err
		}
		if err := a.prepareSetup(p); err != nil {
			return Needs{}, err
		}
		if p.KeepHistory {
			if err := a.keepHistory(personalDir(p.Home), p.Workspace); err != nil {
				return Needs{}, err
			}
		}
		if err := scopeMCPServers(filepath.Join(a.opts.ConfigDir, ".claude.json")); err != nil { // mcp_scope.go
			return Needs{}, err
		}
		if p.Placed && p.PolicyDir != "" {
			if err := checkProjectHelpers(p.Workspace); err != nil { // project_helpers.go
				return Needs{}, err
			}
			mcpjson, err := scopeProjectServers(filepath.Join(a.opts.ConfigDir, ".claude.json"), p.Workspace, filepath.Join(personalDir(p.Home), "settings.json"))
			if err != nil {
				return Needs{}, err
			}
			a.mcpjson = mcpjson // rejected in the managed policy: started scoped instead (mcp_scope.go)
			file := filepath.Join(p.PolicyDir, "claude-managed-settings.json")
			m, err := a.ManagedSettings(hostManaged(), a.opts.Deny)
			if err != nil {
				return Needs{}, err
			}
			if err := writeJSON(file, m); err != nil {
				return Needs{}, fmt.Errorf("write claude's managed policy: %w", err)
			}
			places = map[string]string{ManagedSettingsPath: file}
			mcpFile := filepath.Join(p.PolicyDir, "claude-managed-mcp.json")
			if ok, err := scopedManagedMCP(mcpFile); err != nil { // managed_mcp.go
				return Needs{}, err
			} else if ok {
				places[ManagedMCPPath] = mcpFile
			}
			a.opts.Managed = true
		} else if err := a.writeMCPConfig(p, filepath.Join(p.StateDir, "sentinel-mcp.json")); err != nil {
			// In the per-run state dir, removed with the run: server
			// entries may carry tokens.
			return Needs{}, err
		}
	}
	return Needs{
		Writable:   a.StatePaths(p.Home),
		Readable:   append(a.ReadablePaths(), mcpServerPaths(p.Home, p.Project)...),
		Protected:  a.ProtectedPaths(p.Home),
		PassEnv:    a.PassEnv(),
		DropEnv:    a.DropEnv(),
		AllowHosts: a.AllowHosts(),
		Places:     places,
	}, nil
}

// prepareSetup gives the run the person's own setup: their CLAUDE.md,
// commands, skills and agents copied into the config dir, their settings
// as kept (PersonalSettings) as its settings.json, their ~/.claude.json
// entry for the real project given to the workspace (MapProject), and the
// deny rules of the person and of the repository (as it was before the
// coder started) collected for the managed policy. It also reads the
// CLAUDE.md files for a run without one (Options.Instructions).
func (a *Adapter) prepareSetup(p RunPaths) error {
	src := personalDir(p.Home)
	if err := copyPersonal(src, a.opts.ConfigDir); err != nil {
		return err
	}
	person, err := readSettings(filepath.Join(src, "settings.json"))
	if err != nil {
		return err
	}
	a.opts.Personal = a.PersonalSettings(person)
	if err := writeJSON(filepath.Join(a.opts.ConfigDir, "settings.json"), a.opts.Personal); err != nil {
		return fmt.Errorf("write claude settings: %w", err)
	}
	deny := denyRules(person)
	files := p.Workspace
	if p.Source != "" {
		files = p.Source
	}
	for _, f := range []string{"settings.json", "settings.local.json"} {
		// Deny rules only narrow: the repository's are kept whoever wrote them.
		if repo, err := readSettings(filepath.Join(files, ".claude", f)); err == nil {
			deny = append(deny, denyRules(repo)...)
		}
	}
	a.opts.Deny = deny
	a.opts.Instructions = nil
	for _, in := range []struct{ path, heading string }{
		{filepath.Join(src, "CLAUDE.md"), "The person's own instructions (their ~/.claude/CLAUDE.md):"},
		{filepath.Join(files, "CLAUDE.md"), "The project's instructions (CLAUDE.md in the workspace):"},
	} {
		if s := readInstructions(in.path, in.heading); s != "" {
			a.opts.Instructions = append(a.opts.Instructions, s)
		}
	}
	if p.Project != "" {
		return MapProject(filepath.Join(a.opts.ConfigDir, ".claude.json"), p.Project, p.Workspace)
	}
	return nil
}

// MapProject gives the workspace the person's ~/.claude.json entry for the
// real project (its MCP servers, approved .mcp.json servers, allowed
// tools are dropped): the workspace is a copy at another path, so Claude
// Code would not find it. The trust fields SeedConfig set are kept.
func MapProject(path, project, workspace string) error {
	cfg, err := readSettings(path)
	if err != nil {
		return err
	}
	projects, _ := cfg["projects"].(map[string]any)
	real, _ := projects[project].(map[string]any)
	if real == nil {
		if r, err := filepath.EvalSymlinks(project); err == nil {
			real, _ = projects[r].(map[string]any)
		}
	}
	if real == nil {
		return nil
	}
	ws, _ := projects[workspace].(map[string]any)
	merged := map[string]any{}
	for k, v := range real {
		if k != "allowedTools" {
			merged[k] = v
		}
	}
	for k, v := range ws {
		merged[k] = v
	}
	projects[workspace] = merged
	cfg["projects"] = projects
	if err := writeJSON(path+".sentinel-tmp", cfg); err != nil {
		return err
	}
	return os.Rename(path+".sentinel-tmp", path)
}

// writeMCPConfig is the fallback for a run without a managed policy, where
// Claude Code reads no settings file: the person's MCP servers (user-level
// and their entry for the real project, from their own ~/.claude.json as it
// is before the run) written to path and passed with --mcp-config.
func (a *Adapter) writeMCPConfig(p RunPaths, path string) error {
	cfg, err := readSettings(ConfigFile(p.Home))
	if err != nil {
		return err
	}
	servers := map[string]any{}
	if user, ok := cfg["mcpServers"].(map[string]any); ok {
		for k, v := range user {
			servers[k] = v
		}
	}
	if projects, ok := cfg["projects"].(map[string]any); ok && p.Project != "" {
		if proj, ok := projects[p.Project].(map[string]any); ok {
			if ps, ok := proj["mcpServers"].(map[string]any); ok {
				for k, v := range ps {
					servers[k] = v
				}
			}
		}
	}
	if len(servers) == 0 {
		return nil
	}
	agentutil.ScopeCommandServers(servers) // copies: the person's file is as it was
	if err := writeJSON(path, map[string]any{"mcpServers": servers}); err != nil {
		return fmt.Errorf("write claude's MCP servers: %w", err)
	}
	a.opts.MCPConfig = path
	return nil
}
