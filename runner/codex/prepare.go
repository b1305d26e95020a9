package codex

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"

	"errors"
	"os"
	"path/filepath"
)

// Needs is what a run adds to its sandbox profile for Codex.
type Needs = agentutil.Needs

// RunPaths say where one run lives, for Prepare.
type RunPaths struct {
	Workspace string // the thread's cwd
	// StateDir becomes the run's CODEX_HOME: config.toml, rules, sessions,
	// logs, its sqlite state. It must be writable in the sandbox and outside
	// the run directory the profile makes read-only.
	StateDir string
}

// Prepare writes the run's CODEX_HOME (WriteConfig) and returns what the
// sandbox must allow. Call it once, after the workspace exists and before
// Argv and Env.
func (a *Adapter) Prepare(p RunPaths) (Needs, error) {
	if p.StateDir == "" {
		return Needs{}, errors.New("codex: no state directory for CODEX_HOME (RunPaths.StateDir is empty)")
	}
	abs, err := filepath.Abs(p.StateDir)
	if err != nil {
		return Needs{}, err
	}
	if err := WriteConfig(abs, a.opts.Provider); err != nil {
		return Needs{}, err
	}
	a.opts.Home = abs
	return Needs{
		Writable:   []string{abs},
		Readable:   a.ReadablePaths(),
		Protected:  a.ProtectedPaths(),
		PassEnv:    a.PassEnv(),
		DropEnv:    a.DropEnv(),
		AllowHosts: a.AllowHosts(),
	}, nil
}

// ProtectedPaths are the files in CODEX_HOME that must stay read-only for
// the coder: its config (approval policy, sandbox mode, provider, disabled
// hooks) and exec-policy rules. Codex reads them again when a thread starts.
func (a *Adapter) ProtectedPaths() []string {
	if a.opts.Home == "" {
		return nil
	}
	return []string{filepath.Join(a.opts.Home, "config.toml"), filepath.Join(a.opts.Home, "rules")}
}

// ReadablePaths are locations outside the system ones the sandbox must let
// Codex read: the npm package its launcher and native binary live in.
func (a *Adapter) ReadablePaths() []string {
	bin, err := a.Binary()
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return []string{filepath.Dir(bin)}
	}
	// .../@openai/codex/bin/codex.js: the package holds the native binary
	// in node_modules/@openai/codex-<platform>/.
	dir := filepath.Dir(real)
	if filepath.Base(dir) == "bin" {
		dir = filepath.Dir(dir)
	}
	return []string{dir}
}

// PassEnv names the variables passed through from Sentinel's environment:
// the key named by the provider, and proxy/CA settings.
func (a *Adapter) PassEnv() []string {
	return []string{a.opts.Provider.envKey(), "SSL_CERT_FILE", "SSL_CERT_DIR", "CODEX_CA_CERTIFICATE"}
}

// DropEnv names variables that must never reach Codex: another CODEX_HOME
// (Env sets the run's), its sandbox and approval overrides, and code
// injection.
func (a *Adapter) DropEnv() []string {
	return []string{"CODEX_HOME", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "OPENAI_BASE_URL",
		"NODE_OPTIONS", "LD_PRELOAD", "BASH_ENV"}
}

// AllowHosts is the model host the proxy lets through without asking: the
// provider's base URL host with its port.
func (a *Adapter) AllowHosts() []string {
	return allowHosts(a.opts.Provider.baseURL())
}

func allowHosts(base string) []string {
	if hp, ok := agentutil.URLHostPort(base); ok {
		return []string{hp}
	}
	return []string{"api.openai.com:443"}
}

// ProviderFromEnv is the provider for a run: OPENAI_BASE_URL and
// SENTINEL_CODEX_MODEL when set, else the OpenAI API and Codex's default
// model. The key is always read from OPENAI_API_KEY.
func ProviderFromEnv() Provider {
	return Provider{BaseURL: os.Getenv("OPENAI_BASE_URL"), Model: os.Getenv("SENTINEL_CODEX_MODEL")}
}
