package opencode

import (
	"fmt"
	"github.com/sentinelhq/sentinel/runner/coder"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// knownProvider is what the preflight knows of one of opencode's built-in
// providers: the variable it reads its key from, the one it reads its base
// URL from, and its default endpoint.
type knownProvider struct{ keyEnv, urlEnv, base string }

var knownProviders = map[string]knownProvider{
	"anthropic":  {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com"},
	"openai":     {"OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1"},
	"openrouter": {"OPENROUTER_API_KEY", "", "https://openrouter.ai/api/v1"},
}

// preflight is what the preflight reads of the person's opencode: the
// provider of the model a run will use, its settings in their config, and
// where their config and logins are.
type preflight struct {
	provider string         // "" when no model is named (opencode picks one)
	settings map[string]any // provider.<id> of their config
	config   string         // their config dir, for the fix
	auth     map[string]any // their auth.json (logins by provider)
}

// readPreflight reads the person's opencode as a run with args (opencode's
// arguments after the program, e.g. acp -m anthropic/claude-…) would use it.
func readPreflight(args []string) (preflight, error) {
	home, _ := os.UserHomeDir()
	cfg, err := personConfig(home, os.Getenv)
	if err != nil {
		return preflight{}, err
	}
	var pf preflight
	if dir := personDir(home, os.Getenv("XDG_CONFIG_HOME"), ".config"); dir != "" {
		pf.config = filepath.Join(dir, "opencode")
	}
	model, _ := cfg["model"].(string)
	if model == "" && os.Getenv("XDG_CONFIG_HOME") != "" {
		// The sandbox may start opencode without XDG_CONFIG_HOME, so it
		// reads ~/.config/opencode: a model named there is the run's too
		// (a preflight that refused it would stop a run that works).
		noXDG := func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return ""
			}
			return os.Getenv(k)
		}
		if c, err := personConfig(home, noXDG); err == nil {
			if m, _ := c["model"].(string); m != "" {
				cfg, model = c, m
				pf.config = filepath.Join(home, ".config", "opencode")
			}
		}
	}
	for i, a := range args {
		switch {
		case (a == "-m" || a == "--model") && i+1 < len(args):
			model = args[i+1]
		case strings.HasPrefix(a, "--model="):
			model = strings.TrimPrefix(a, "--model=")
		}
	}
	pf.provider, _, _ = strings.Cut(model, "/")
	if providers, ok := cfg["provider"].(map[string]any); ok {
		pf.settings, _ = providers[pf.provider].(map[string]any)
	}
	if dir := personDir(home, os.Getenv("XDG_DATA_HOME"), ".local/share"); dir != "" {
		if m, err := agentutil.ReadJSONC(filepath.Join(dir, "opencode", "auth.json")); err == nil {
			pf.auth = m
		}
	}
	return pf, nil
}

// configFile is where the person's opencode config names a model.
func (pf preflight) configFile() string {
	if pf.config == "" {
		return "your opencode config (opencode.json)"
	}
	return filepath.Join(pf.config, "opencode.json")
}

// option is provider.<id>.options.<name> of the person's config.
func (pf preflight) option(name string) string {
	opts, _ := pf.settings["options"].(map[string]any)
	s, _ := opts[name].(string)
	return s
}

// SignIn is nil when opencode will find a key or login for the provider of
// the model the run uses (args as in readPreflight): its variable, an
// apiKey in the person's config, or their login (opencode auth login). A
// provider the preflight does not know is not refused (no model named is
// ModelEndpoint's to refuse).
func SignIn(args []string) error {
	pf, err := readPreflight(args)
	if err != nil {
		return err
	}
	kp, known := knownProviders[pf.provider]
	if !known || pf.option("baseURL") != "" {
		return nil // another provider, or the person's own endpoint: it may need no key
	}
	if os.Getenv(kp.keyEnv) != "" || pf.option("apiKey") != "" || pf.auth[pf.provider] != nil {
		return nil
	}
	return fmt.Errorf("coder opencode: no key and no login for provider %s (set %s, or sign in once with: opencode auth login)", pf.provider, kp.keyEnv)
}

// ModelEndpoint is the base URL opencode sends the run's model traffic to
// ("" for a provider the preflight does not know) and the fix when it does
// not answer. No model named is an error: opencode's own pick cannot be
// known before it starts.
func ModelEndpoint(args []string) (url, fix string, err error) {
	pf, err := readPreflight(args)
	if err != nil {
		return "", "", err
	}
	if pf.provider == "" {
		// opencode would take the first provider it finds a key for, in
		// the order of its model list (models.dev, fetched at start): not
		// knowable here, and a dead one cost a 100 s failed run.
		return "", "", fmt.Errorf("coder opencode: no model named, so its endpoint cannot be checked before the run: name one (opencode acp -m provider/model, e.g. -m anthropic/claude-sonnet-4-5, or \"model\" in %s)", pf.configFile())
	}
	if u := pf.option("baseURL"); u != "" {
		return u, fmt.Sprintf("start it, or point provider.%s.options.baseURL in your opencode config (%s) at one that answers", pf.provider, pf.config), nil
	}
	kp, known := knownProviders[pf.provider]
	if !known {
		return "", "", nil
	}
	if kp.urlEnv != "" && os.Getenv(kp.urlEnv) != "" {
		return os.Getenv(kp.urlEnv), "start it, or point " + kp.urlEnv + " at one that answers", nil
	}
	return kp.base, "check this machine's network", nil
}

// ModelProbe is how the preflight tells the API of the run's provider
// from a wrong endpoint: Anthropic's or OpenAI's shape for the providers it
// knows (openrouter speaks OpenAI's), none (reachability only) for others.
func ModelProbe(args []string) coder.Probe {
	pf, err := readPreflight(args)
	if err != nil {
		return coder.Probe{}
	}
	switch pf.provider {
	case "anthropic":
		return coder.AnthropicProbe
	case "openai", "openrouter":
		return coder.OpenAIProbe
	}
	return coder.Probe{}
}
