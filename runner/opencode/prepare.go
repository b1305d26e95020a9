package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// Needs is what a run adds to its sandbox profile for opencode.
type Needs = agentutil.Needs

// RunPaths say where one in-place run lives, for Prepare.
type RunPaths struct {
	// Home is the person's home directory (read, never written).
	Home string
	// Getenv reads Sentinel's environment (where the person's opencode
	// config and login are: XDG_CONFIG_HOME, XDG_DATA_HOME, OPENCODE_CONFIG);
	// nil is os.Getenv.
	Getenv func(string) string
	// StateDir is the run's own directory for opencode, writable in the
	// sandbox and removed with the run (it holds a copy of the login).
	StateDir string
	// Project is the directory opencode works in: its instructions file
	// (AGENTS.md, else CLAUDE.md or CONTEXT.md) is kept.
	Project string
	// WhereAmI tells the coder where it is (agentutil.WhereAmI).
	WhereAmI string
	// SessionsOf (in place: the person's project root) keeps opencode's
	// sessions across runs in that project's own store (sessions.go); ""
	// keeps none.
	SessionsOf string
}

// Relative to the run's home (HOME for opencode).
const (
	configDir  = ".config/opencode"            // opencode's global config dir
	authFile   = AuthFile                      // its logins
	modelsFile = ".cache/opencode/models.json" // its model catalog
	whereAmI   = "sentinel-whereami.md"        // in configDir: Sentinel's text
)

// configFiles are the global config files opencode (1.18) reads, in the
// order it merges them (a later one wins).
var configFiles = []string{"config.json", "opencode.json", "opencode.jsonc"}

// projectInstructions are the instruction files opencode reads from the
// project (the first that exists), which it no longer finds itself when
// the project's config is not read (OPENCODE_DISABLE_PROJECT_CONFIG).
var projectInstructions = []string{"AGENTS.md", "CLAUDE.md", "CONTEXT.md"}

// gitignore is what opencode (1.18.33) writes into every config dir it
// reads, unless the file already says exactly this: written first, so
// that the run's config dir can be read-only (opencode fails to start when
// it cannot write it).
const gitignore = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore"

// Prepare makes the run's own home for opencode in StateDir and returns
// what the sandbox must allow. In it, the config dir (.config/opencode)
// holds the person's config made for Sentinel (ExecConfig), their global
// AGENTS.md, Sentinel's where-am-I text and, in plugin/, Sentinel's plugin,
// the only plugin opencode loads: it is the config dir's only file there,
// the config names none, the project's config is not read (Env), and
// ~/.opencode is the run's own, empty. The config dir is read-only in the
// sandbox, so the coder cannot add a plugin, change Sentinel's or its
// settings for a later start, and opencode installs nothing into it (it
// skips a dir it cannot write; its npm install would otherwise reach the
// registry at every start). The person's login (auth.json) is copied, and
// their TUI's display choices (keepDisplay: "Disable animations").
// Everything else of opencode's state (sessions, logs, caches) is the
// run's own, under the same home. The person's files are only read.
func (a *Adapter) Prepare(p RunPaths) (Needs, error) {
	getenv := p.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if p.StateDir == "" {
		return Needs{}, fmt.Errorf("opencode: no state directory for the run")
	}
	state, err := filepath.Abs(p.StateDir)
	if err != nil {
		return Needs{}, err
	}
	home := filepath.Join(state, "home")
	cfg := filepath.Join(home, configDir)
	if err := os.MkdirAll(filepath.Join(cfg, "plugin"), 0o700); err != nil {
		return Needs{}, fmt.Errorf("opencode: make the run's config dir: %w", err)
	}
	person, err := personConfig(p.Home, getenv)
	if err != nil {
		return Needs{}, err
	}
	var extra []string
	if p.WhereAmI != "" {
		f := filepath.Join(cfg, whereAmI)
		if err := os.WriteFile(f, []byte(p.WhereAmI+"\n"), 0o600); err != nil {
			return Needs{}, fmt.Errorf("opencode: write the run's instructions: %w", err)
		}
		extra = append(extra, f)
	}
	if f := firstFile(p.Project, projectInstructions); f != "" {
		extra = append(extra, f)
	}
	if err := agentutil.WriteJSON(filepath.Join(cfg, "opencode.json"), ExecConfig(person, extra)); err != nil {
		return Needs{}, fmt.Errorf("opencode: write the run's config: %w", err)
	}
	if dir := personDir(p.Home, getenv("XDG_CONFIG_HOME"), ".config"); dir != "" {
		if err := agentutil.CopyPrivate(filepath.Join(dir, "opencode", "AGENTS.md"), filepath.Join(cfg, "AGENTS.md")); err != nil {
			return Needs{}, fmt.Errorf("opencode: copy your global AGENTS.md into the run: %w", err)
		}
	}
	if dir := personDir(p.Home, getenv("XDG_DATA_HOME"), ".local/share"); dir != "" {
		if err := agentutil.CopyPrivate(filepath.Join(dir, "opencode", "auth.json"), filepath.Join(home, authFile)); err != nil {
			return Needs{}, fmt.Errorf("opencode: copy your login (auth.json) into the run: %w", err)
		}
	}
	if dir := personDir(p.Home, getenv("XDG_CACHE_HOME"), ".cache"); dir != "" {
		// The model catalog as the person's opencode last fetched it: the
		// run's opencode knows their providers' models without first
		// reaching the network (its refresh is asked about as any host).
		if err := agentutil.CopyPrivate(filepath.Join(dir, "opencode", "models.json"), filepath.Join(home, modelsFile)); err != nil {
			return Needs{}, fmt.Errorf("opencode: copy your model catalog (models.json) into the run: %w", err)
		}
	}
	if err := keepDisplay(p.Home, home, getenv); err != nil {
		return Needs{}, err
	}
	hook, err := a.hookArgv()
	if err != nil {
		return Needs{}, err
	}
	decide, report := a.waits()
	src, err := Plugin(hook, p.Home, decide, report)
	if err != nil {
		return Needs{}, err
	}
	if err := os.WriteFile(filepath.Join(cfg, "plugin", PluginFile), []byte(src), 0o600); err != nil {
		return Needs{}, fmt.Errorf("opencode: write Sentinel's plugin: %w", err)
	}
	if err := os.WriteFile(filepath.Join(cfg, ".gitignore"), []byte(gitignore), 0o600); err != nil {
		return Needs{}, err
	}
	n := Needs{
		Writable:  []string{home},
		Protected: []string{cfg},
		Readable:  a.programDirs(),
		PassEnv:   KeyEnv,
	}
	if p.SessionsOf != "" {
		store, others, err := sessionStore(p.Home, getenv, p.SessionsOf)
		if err != nil {
			return Needs{}, err
		}
		n.Writable = append(n.Writable, store)
		n.Hidden = append(n.Hidden, others...)
		a.db = filepath.Join(store, dbFile)
	}
	a.home = home
	return n, nil
}

// KeyEnv are the variables opencode's providers read their endpoint and
// key from; they pass into the sandbox when set.
var KeyEnv = []string{
	"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL",
	"OPENROUTER_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY",
	"GROQ_API_KEY", "XAI_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY", "OPENCODE_API_KEY",
}

// personConfig is the person's global opencode config, its files merged
// as opencode merges them, then the file OPENCODE_CONFIG names.
func personConfig(home string, getenv func(string) string) (map[string]any, error) {
	var merged map[string]any
	var files []string
	if dir := personDir(home, getenv("XDG_CONFIG_HOME"), ".config"); dir != "" {
		for _, f := range configFiles {
			files = append(files, filepath.Join(dir, "opencode", f))
		}
	}
	if f := getenv("OPENCODE_CONFIG"); f != "" {
		files = append(files, f)
	}
	for _, f := range files {
		m, err := agentutil.ReadJSONC(f)
		if err != nil {
			return nil, fmt.Errorf("opencode: your config: %w", err)
		}
		if m != nil {
			merged = mergeDeep(merged, m)
		}
	}
	return merged, nil
}

// personDir is an XDG base directory: the variable's value when absolute,
// else home/def ("" without a home).
func personDir(home, xdg, def string) string {
	if filepath.IsAbs(xdg) {
		return xdg
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, def)
}

// mergeDeep merges b over a: objects key by key, anything else replaced.
func mergeDeep(a, b map[string]any) map[string]any {
	if a == nil {
		a = map[string]any{}
	}
	for k, v := range b {
		if bm, ok := v.(map[string]any); ok {
			if am, ok := a[k].(map[string]any); ok {
				a[k] = mergeDeep(am, bm)
				continue
			}
		}
		a[k] = v
	}
	return a
}

// firstFile is the first of names that is a regular file in dir.
func firstFile(dir string, names []string) string {
	if dir == "" {
		return ""
	}
	for _, n := range names {
		f := filepath.Join(dir, n)
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			return f
		}
	}
	return ""
}

// programDirs are the directories the sandbox must let opencode's program
// be read from, wherever it is installed: the launcher's, the one it
// resolves to, and all of the opencode-ai npm package it is in (whose
// launcher starts the binary of a platform package inside it).
func (a *Adapter) programDirs() []string {
	var out []string
	for _, p := range a.opts.Launch {
		if !filepath.IsAbs(p) {
			continue
		}
		out = append(out, filepath.Dir(p))
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		if i := strings.Index(r, npmPackage); i >= 0 {
			out = append(out, r[:i+len(npmPackage)-1])
		} else if r != p {
			out = append(out, filepath.Dir(r))
		}
	}
	return out
}

// npmPackage is the path element of opencode's npm package.
const npmPackage = "/opencode-ai/"
