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
	// PersonDir is the person's own CODEX_HOME (PersonDir): their
	// config.toml, auth.json and AGENTS.md are read there, never written.
	// Empty: none.
	PersonDir string
	// WhereAmI is Sentinel's text telling the coder where it runs
	// (agentutil.WhereAmI); it goes into developer_instructions.
	WhereAmI string
	// PolicyDir is a directory the coder can never write, and Placed says
	// the sandbox will show Needs.Places (sandbox.PlacesEnforced): in
	// place, Sentinel's hooks are written there as Codex's managed
	// requirements. Without both they go in CODEX_HOME (inplace.go).
	// The app-server uses neither.
	PolicyDir string
	Placed    bool
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
	person, err := LoadPerson(p.PersonDir)
	if err != nil {
		return Needs{}, err
	}
	home, _ := os.UserHomeDir() // where a person's MCP server script may live
	pl, err := NewPlan(a.opts.Provider, person, p.WhereAmI)
	if err != nil {
		return Needs{}, err
	}
	if a.opts.Mode == Interactive {
		pl.InPlace = p.Workspace
	}
	if err := WriteConfig(abs, pl, person); err != nil {
		return Needs{}, err
	}
	a.opts.Home, a.plan = abs, &pl
	var places map[string]string
	if a.opts.Mode == Interactive {
		if places, err = a.writeHooks(abs, p.PolicyDir, p.Placed); err != nil {
			return Needs{}, err
		}
	}
	if a.opts.Mode == Interactive && p.PersonDir != "" {
		// In place (the only interactive use): its sessions persist.
		if err := a.keepHistory(p.PersonDir, p.Workspace); err != nil {
			return Needs{}, err
		}
	}
	return Needs{
		Places:     places,
		Writable:   []string{abs},
		Readable:   append(a.ReadablePaths(), person.MCPServerPaths(home)...),
		Protected:  a.ProtectedPaths(),
		PassEnv:    a.PassEnv(),
		DropEnv:    a.DropEnv(),
		AllowHosts: a.AllowHosts(),
	}, nil
}

// ProtectedPaths are the files in CODEX_HOME that must stay read-only for
// the coder: its config (approval policy, sandbox mode, provider, hooks on
// or off), Sentinel's hooks when they are there, and exec-policy rules.
// Codex reads them again when a thread starts.
func (a *Adapter) ProtectedPaths() []string {
	if a.opts.Home == "" {
		return nil
	}
	out := []string{filepath.Join(a.opts.Home, "config.toml"), filepath.Join(a.opts.Home, "rules")}
	for _, f := range append([]string{hooksFile}, instructionFiles...) {
		if p := filepath.Join(a.opts.Home, f); fileExists(p) {
			out = append(out, p)
		}
	}
	return out
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// plan is the prepared plan, else the one for the adapter's provider alone.
func (a *Adapter) currentPlan() Plan {
	if a.plan != nil {
		return *a.plan
	}
	return PlanFor(a.opts.Provider)
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
// the ones the provider reads (its env_key and env_http_headers; only
// those), and CA settings.
func (a *Adapter) PassEnv() []string {
	return append(a.currentPlan().EnvKeys, "SSL_CERT_FILE", "SSL_CERT_DIR", "CODEX_CA_CERTIFICATE")
}

// DropEnv names variables that must never reach Codex: another CODEX_HOME
// (Env sets the run's), its sandbox and approval overrides, and code
// injection.
func (a *Adapter) DropEnv() []string {
	return []string{"CODEX_HOME", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "OPENAI_BASE_URL",
		"NODE_OPTIONS", "LD_PRELOAD", "BASH_ENV"}
}

// AllowHosts are the hosts the proxy lets through without asking: the
// provider's base URL host with its port (and, for a ChatGPT sign-in, its
// token refresh host).
func (a *Adapter) AllowHosts() []string {
	return a.currentPlan().AllowHosts()
}

func allowHosts(base string) []string {
	if hp, ok := agentutil.URLHostPort(base); ok {
		return []string{hp}
	}
	return []string{"api.openai.com:443"}
}

// ProviderFromEnv is what the environment says about the provider:
// OPENAI_BASE_URL, and SENTINEL_CODEX_MODEL for the model; the key is read
// from OPENAI_API_KEY. NewPlan decides whether the person's own provider or
// sign-in wins over it.
func ProviderFromEnv() Provider {
	return Provider{BaseURL: os.Getenv("OPENAI_BASE_URL"), Model: os.Getenv("SENTINEL_CODEX_MODEL"),
		FromEnv: os.Getenv("OPENAI_BASE_URL") != "" || os.Getenv("OPENAI_API_KEY") != ""}
}
