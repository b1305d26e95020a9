package claude

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"

	"os"
	"path/filepath"
)

// StatePaths are the places Claude Code writes to and so must be writable
// inside the sandbox. With Options.ConfigDir that is the one directory.
// Without it, Claude Code (2.1.332, measured) writes ~/.claude/ and rewrites
// ~/.claude.json through ~/.claude.json.lock and ~/.claude.json.tmp.<pid>.<rand>
// created directly in home — a sandbox that cannot allow those names without
// making home writable should use ConfigDir. Either way it also tries
// ~/.local/share/applications/claude-code-url-handler.desktop (interactive
// mode), which is not listed: it is not needed to work.
// Paths that do not exist yet are listed too; the sandbox decides how to
// make them.
func (a *Adapter) StatePaths(home string) []string {
	if a.opts.ConfigDir != "" {
		return []string{a.opts.ConfigDir}
	}
	paths := []string{
		filepath.Join(home, ".claude"),
		filepath.Join(home, ".claude.json"),
		filepath.Join(home, ".claude.json.lock"),
		filepath.Join(home, ".cache", "claude"),
		filepath.Join(home, ".cache", "claude-cli-nodejs"),
		filepath.Join(home, ".local", "state", "claude"),
	}
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		paths = append(paths, dir)
	}
	return paths
}

// ReadablePaths are locations outside the system ones the sandbox must let
// Claude Code read: the directory its executable really lives in (npm's
// global prefix, or ~/.local/share/claude for the native installer).
func (a *Adapter) ReadablePaths() []string {
	bin, err := a.Binary()
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return []string{filepath.Dir(bin)}
	}
	return []string{filepath.Dir(real)}
}

// PassEnv names the variables passed through from Sentinel's environment:
// credentials, the endpoint, proxy/CA settings and the CLAUDE_CODE_* knobs
// that choose a provider or model. Names in DropEnv are never passed.
func (a *Adapter) PassEnv() []string {
	names := []string{
		"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
		"ANTHROPIC_MODEL", "ANTHROPIC_SMALL_FAST_MODEL", "ANTHROPIC_CUSTOM_HEADERS",
		"ANTHROPIC_DEFAULT_OPUS_MODEL", "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL",
		"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY",
		"CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_MAX_OUTPUT_TOKENS", "CLAUDE_CONFIG_DIR",
		"NODE_EXTRA_CA_CERTS",
	}
	if a.opts.ConfigDir == "" {
		return names
	}
	// CLAUDE_CONFIG_DIR is the per-run directory, set by Env.
	out := names[:0]
	for _, n := range names {
		if n != "CLAUDE_CONFIG_DIR" {
			out = append(out, n)
		}
	}
	return out
}

// DropEnv names variables that must never reach Claude Code because they
// switch Sentinel's hooks off (--bare sets CLAUDE_CODE_SIMPLE; --safe-mode
// sets CLAUDE_CODE_SAFE_MODE) or load code into it.
func (a *Adapter) DropEnv() []string {
	return []string{"CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE", "NODE_OPTIONS", "LD_PRELOAD", "BASH_ENV"}
}

// AllowHosts is the host the proxy lets through without asking: the host of
// ANTHROPIC_BASE_URL when set (with its port, defaulting by scheme), else
// the Anthropic API.
func (a *Adapter) AllowHosts() []string {
	return allowHosts(os.Getenv("ANTHROPIC_BASE_URL"))
}

func allowHosts(base string) []string {
	if base == "" {
		return []string{"api.anthropic.com:443"}
	}
	if hp, ok := agentutil.URLHostPort(base); ok {
		return []string{hp}
	}
	return []string{"api.anthropic.com:443"}
}

// ProtectedPaths are files inside the writable state paths that must stay
// read-only for the coder: the settings files Claude Code reads on a later
// start (env there applies without approval) and the person's instructions,
// commands, skills and agents copied in (personalEntries). Paths that do
// not exist are left alone by the sandbox.
func (a *Adapter) ProtectedPaths(home string) []string {
	if a.opts.ConfigDir != "" {
		out := []string{
			filepath.Join(a.opts.ConfigDir, "settings.json"),
			filepath.Join(a.opts.ConfigDir, "settings.local.json"),
		}
		for _, e := range personalEntries {
			out = append(out, filepath.Join(a.opts.ConfigDir, e))
		}
		return out
	}
	return []string{
		filepath.Join(home, ".claude", "settings.json"),
		filepath.Join(home, ".claude", "settings.local.json"),
	}
}
