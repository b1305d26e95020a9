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

// PrepareConfigDir fills Options.ConfigDir for one run: a copy of the
// person's Claude Code state file (their onboarding, preferences and
// approvals; from $CLAUDE_CONFIG_DIR or home) seeded by SeedConfig for the
// workspace and apiKey, and a copy of their login (.credentials.json, the
// file Claude Code keeps OAuth tokens in on Linux) when there is one. The
// person's own files are only read. The directory must not be inside
// anything the sandbox makes read-only.
func (a *Adapter) PrepareConfigDir(home, workspace, apiKey string) error {
	dir := a.opts.ConfigDir
	if dir == "" {
		return fmt.Errorf("claude: PrepareConfigDir needs Options.ConfigDir")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create claude config dir: %w", err)
	}
	srcDir := os.Getenv("CLAUDE_CONFIG_DIR")
	srcFile := ConfigFile(home)
	if srcDir == "" {
		srcDir = filepath.Join(home, ".claude")
	}
	dst := filepath.Join(dir, ".claude.json")
	if err := copyIfExists(srcFile, dst); err != nil {
		return err
	}
	if err := copyIfExists(filepath.Join(srcDir, ".credentials.json"), filepath.Join(dir, ".credentials.json")); err != nil {
		return err
	}
	return SeedConfig(dst, workspace, apiKey)
}

// copyIfExists copies src to dst (mode 0600); a missing src is no error.
func copyIfExists(src, dst string) error {
	b, err := os.ReadFile(src)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}
