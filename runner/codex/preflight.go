package codex

import (
	"fmt"
	"github.com/sentinelhq/sentinel/runner/coder"
	"os"
	"path/filepath"
)

// preflightPlan is the plan a run would make (NewPlan) from the person's
// CODEX_HOME as it is now, and that directory.
func (a *Adapter) preflightPlan() (Plan, *Person, error) {
	home, _ := os.UserHomeDir()
	person, err := LoadPerson(PersonDir(os.Getenv, home))
	if err != nil {
		return Plan{}, nil, err
	}
	pl, err := NewPlan(a.opts.Provider, person, "")
	return pl, person, err
}

// SignIn is nil when Codex will find its key or sign-in where the run's
// plan points it: the person's auth.json (copied when the plan uses it),
// else the provider's env_key variable. A provider of the person's with no
// env_key needs none.
func (a *Adapter) SignIn() error {
	pl, person, err := a.preflightPlan()
	if err != nil {
		return err
	}
	if pl.Auth {
		return nil
	}
	key, _ := pl.Provider["env_key"].(string)
	if key == "" || os.Getenv(key) != "" {
		return nil
	}
	if pl.ProviderID == ProviderID {
		return fmt.Errorf("coder codex: no API key and no sign-in (set %s, or sign in once with: codex login)", key)
	}
	return fmt.Errorf("coder codex: %s is not set, and [model_providers.%s] in your %s reads its key from it (set it)", key, pl.ProviderID, filepath.Join(person.Dir, "config.toml"))
}

// ModelEndpoint is the base URL Codex sends its model traffic to under the
// run's plan, and the fix when it does not answer.
func (a *Adapter) ModelEndpoint() (url, fix string, err error) {
	pl, person, err := a.preflightPlan()
	if err != nil {
		return "", "", err
	}
	cfg := filepath.Join(person.Dir, "config.toml")
	switch {
	case pl.ProviderID != ProviderID && pl.ProviderID != openaiID:
		return pl.BaseURL, fmt.Sprintf("start it, or point base_url of [model_providers.%s] in %s at one that answers", pl.ProviderID, cfg), nil
	case pl.ProviderID == ProviderID && os.Getenv("OPENAI_BASE_URL") != "":
		return pl.BaseURL, "start it, or point OPENAI_BASE_URL at one that answers", nil
	case pl.BaseURL == DefaultBaseURL || pl.BaseURL == chatgptBaseURL:
		return pl.BaseURL, "check this machine's network, or set OPENAI_BASE_URL to an endpoint that answers", nil
	}
	return pl.BaseURL, "start it, or point openai_base_url / chatgpt_base_url in " + cfg + " at one that answers", nil
}

// ModelProbe is how the preflight tells the OpenAI API at the plan's base
// URL from a wrong endpoint; none (reachability only) for a provider of the
// person's with query_params (Azure's api-version): its paths are its own.
func (a *Adapter) ModelProbe() coder.Probe {
	pl, _, err := a.preflightPlan()
	if err != nil || pl.Provider["query_params"] != nil {
		return coder.Probe{}
	}
	return coder.OpenAIProbe
}
