package claude

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// ConfigFile is Claude Code's top-level state file under home
// ($CLAUDE_CONFIG_DIR/.claude.json when that is set).
func ConfigFile(home string) string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, ".claude.json")
	}
	return filepath.Join(home, ".claude.json")
}

// SeedConfig edits Claude Code's state file so that interactive mode starts
// straight into the task: the workspace's trust dialog accepted and, when
// apiKey is set, onboarding done and that key approved (Claude Code keys
// the approval by the key's last 20 characters). Every other field in the
// file is kept; the file is replaced atomically. Claude Code rewrites this
// file while it runs: seed it before the coder starts.
func SeedConfig(path, workspace, apiKey string) error {
	cfg := map[string]any{}
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(raw, &cfg); err != nil {
			return fmt.Errorf("claude state file %s is not JSON (%v): fix or remove it", path, err)
		}
	case !os.IsNotExist(err):
		return fmt.Errorf("read claude state file: %w", err)
	}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	proj, _ := projects[workspace].(map[string]any)
	if proj == nil {
		proj = map[string]any{}
	}
	proj["hasTrustDialogAccepted"] = true
	proj["hasCompletedProjectOnboarding"] = true
	projects[workspace] = proj
	cfg["projects"] = projects
	if apiKey != "" {
		cfg["hasCompletedOnboarding"] = true
		tail := apiKey
		if len(tail) > 20 {
			tail = tail[len(tail)-20:]
		}
		resp, _ := cfg["customApiKeyResponses"].(map[string]any)
		if resp == nil {
			resp = map[string]any{"rejected": []any{}}
		}
		approved, _ := resp["approved"].([]any)
		found := false
		for _, a := range approved {
			found = found || a == tail
		}
		if !found {
			approved = append(approved, tail)
		}
		resp["approved"] = approved
		cfg["customApiKeyResponses"] = resp
	}
	out, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".claude.json.sentinel-*")
	if err != nil {
		return fmt.Errorf("write claude state file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return fmt.Errorf("write claude state file: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
