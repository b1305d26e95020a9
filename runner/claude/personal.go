package claude

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// personalEntries are what of the person's Claude Code directory a run
// keeps: their instructions, custom commands, skills and subagents. They
// are copied into the per-run config dir and kept read-only there
// (ProtectedPaths): the coder cannot leave instructions for a later start.
var personalEntries = []string{"CLAUDE.md", "commands", "skills", "agents"}

// keptSettings are the keys of the person's settings.json a run keeps.
// Hooks, permission rules (deny rules go to the managed policy instead:
// ManagedSettings), status-line and helper commands, and anything else
// that runs a command or widens access are left out. displaySettings are
// among them.
var keptSettings = append([]string{"env", "model", "outputStyle", "alwaysThinkingEnabled", "includeCoAuthoredBy", "language"}, displaySettings...)

// displaySettings are the person's settings that only change how Claude
// Code draws its screen, kept in every run, with a managed policy or
// without one (Settings): prefersReducedMotion is their "Reduce motion"
// (an accessibility choice; it also stops the spinner's 120 ms and the
// shimmer's 50 ms redraws, which cost a waiting Claude 1.3-2.7 CPU-s per
// 20 s against 0.4: docs/measure/claude-spinner.sh).
var displaySettings = []string{"prefersReducedMotion"}

// personalDir is the person's own Claude Code directory: $CLAUDE_CONFIG_DIR
// or ~/.claude.
func personalDir(home string) string {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(home, ".claude")
}

// readSettings reads a Claude Code settings file as a JSON object; a
// missing file is an empty one, a file that is not JSON is an error naming it.
func readSettings(path string) (map[string]any, error) {
	out := map[string]any{}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("claude settings %s is not a JSON object (%v): fix it or move it away", path, err)
	}
	return out, nil
}

// PersonalSettings is the person's settings.json as a run keeps it: the
// keptSettings keys only, with env variables that would switch Sentinel's
// hooks off or load code (DropEnv) removed.
func (a *Adapter) PersonalSettings(s map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range keptSettings {
		if v, ok := s[k]; ok {
			out[k] = v
		}
	}
	if env, ok := out["env"].(map[string]any); ok {
		kept := map[string]any{}
		for k, v := range env {
			if !slices.Contains(a.DropEnv(), k) {
				kept[k] = v
			}
		}
		out["env"] = kept
	}
	return out
}

// denyRules are the permissions.deny entries of a settings object.
func denyRules(s map[string]any) []string {
	perms, _ := s["permissions"].(map[string]any)
	list, _ := perms["deny"].([]any)
	var out []string
	for _, r := range list {
		if str, ok := r.(string); ok && strings.TrimSpace(str) != "" {
			out = append(out, str)
		}
	}
	return out
}

// copyPersonal copies the person's personalEntries from src into dst
// (regular files only, following links to files; nothing is written to
// src) and makes the directories that are missing, so every entry exists
// and can be kept read-only.
func copyPersonal(src, dst string) error {
	for _, name := range personalEntries {
		from, to := filepath.Join(src, name), filepath.Join(dst, name)
		st, err := os.Stat(from)
		switch {
		case os.IsNotExist(err):
			if name != "CLAUDE.md" {
				if err := os.MkdirAll(to, 0o700); err != nil {
					return err
				}
			}
			continue
		case err != nil:
			return fmt.Errorf("read %s: %w", from, err)
		case !st.IsDir():
			if err := copyIfExists(from, to); err != nil {
				return err
			}
			continue
		}
		err = filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable entry is left out
			}
			rel, _ := filepath.Rel(from, p)
			target := filepath.Join(to, rel)
			if d.IsDir() {
				return os.MkdirAll(target, 0o700)
			}
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				return nil
			}
			return copyIfExists(p, target)
		})
		if err != nil {
			return fmt.Errorf("copy %s: %w", from, err)
		}
	}
	return nil
}

// writeJSON writes v as indented JSON, mode 0600.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
