package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func opencodeACP(args ...string) func() Adapter {
	return func() Adapter {
		a, err := NewAdapter("acp", "", append([]string{"/usr/local/bin/opencode", "acp"}, args...))
		if err != nil {
			panic(err)
		}
		return a
	}
}

// opencode over ACP is checked before the run like the other coders: a key
// or login for the provider of its model, and that provider's endpoint
// answering; the check says what it does as it starts.
func TestPreflightChecksOpencode(t *testing.T) {
	dead := closedURL(t)
	answering := apiWithoutKey(t)
	wrong := answers404(t)
	emptyXDG := t.TempDir()
	for _, tc := range []struct {
		name    string
		adapter func() Adapter
		env     map[string]string
		config  string // the person's ~/.config/opencode/opencode.json
		auth    string // their ~/.local/share/opencode/auth.json
		want    []string
	}{
		{name: "dead endpoint", adapter: opencodeACP("-m", "anthropic/claude-x"),
			env:  map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": dead},
			want: []string{"coder opencode: its model endpoint " + dead + " is not reachable: connection refused", "point ANTHROPIC_BASE_URL at one"}},
		{name: "answering", adapter: opencodeACP("--model=anthropic/claude-x"),
			env: map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": answering.URL}},
		{name: "at an endpoint answering 404", adapter: opencodeACP("-m", "openai/gpt-x"),
			env:  map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": wrong.URL + "/v1"},
			want: []string{"coder opencode: its model endpoint " + wrong.URL + "/v1 answers HTTP 404 to GET /models", "not the OpenAI API"}},
		// The person's own provider: its API's shape is not known, so
		// any answer will do.
		{name: "the person's provider answering 404", adapter: opencodeACP(),
			config: `{"model": "local/qwen", "provider": {"local": {"options": {"baseURL": "` + wrong.URL + `"}}}}`},
		{name: "model from config, no key", adapter: opencodeACP(), config: `{"model": "openai/gpt-x"}`,
			env:  map[string]string{"OPENAI_BASE_URL": answering.URL},
			want: []string{"coder opencode: no key and no login for provider openai", "OPENAI_API_KEY", "opencode auth login"}},
		{name: "login in auth.json", adapter: opencodeACP(), config: `{"model": "openai/gpt-x"}`, auth: `{"openai": {"type": "api", "key": "k"}}`,
			env: map[string]string{"OPENAI_BASE_URL": answering.URL}},
		{name: "the person's provider dead", adapter: opencodeACP(),
			config: `{"model": "local/qwen", "provider": {"local": {"options": {"baseURL": "` + dead + `"}}}}`,
			want:   []string{"coder opencode: its model endpoint " + dead + " is not reachable", "provider.local.options.baseURL"}},
		// opencode would pick a provider from its model list, fetched at
		// start: the preflight cannot know which, so it asks for a model
		// instead of letting a run start blind (it failed after 100 s).
		{name: "no model named", adapter: opencodeACP(), env: map[string]string{"ANTHROPIC_API_KEY": "k"},
			want: []string{"coder opencode: no model named", "-m provider/model", filepath.Join(".config", "opencode", "opencode.json")}},
		// XDG_CONFIG_HOME names a dir without opencode's config (as for a
		// person who keeps only other programs' there, or a test): the
		// sandboxed opencode reads ~/.config/opencode, so its model counts.
		{name: "model in ~/.config beside an XDG_CONFIG_HOME without one", adapter: opencodeACP(),
			config: `{"model": "local/qwen", "provider": {"local": {"options": {"baseURL": "` + answering.URL + `"}}}}`,
			env:    map[string]string{"XDG_CONFIG_HOME": emptyXDG}},
		{name: "no model named, a key and a config", adapter: opencodeACP(), config: `{"provider": {"anthropic": {}}}`,
			env:  map[string]string{"ANTHROPIC_API_KEY": "k"},
			want: []string{"coder opencode: no model named"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := cleanCoderEnv(t)
			for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "OPENCODE_CONFIG", "OPENROUTER_API_KEY"} {
				t.Setenv(v, "")
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			if tc.config != "" {
				write(t, filepath.Join(home, ".config", "opencode", "opencode.json"), tc.config)
			}
			if tc.auth != "" {
				write(t, filepath.Join(home, ".local", "share", "opencode", "auth.json"), tc.auth)
			}
			var said []string
			err := preflightModel(context.Background(), tc.adapter(), func(s string) { said = append(said, s) })
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("the preflight passed")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if strings.Contains(err.Error(), "not reachable") && (len(said) != 1 || !strings.Contains(said[0], "checking that its model endpoint")) {
				t.Errorf("the endpoint check was silent: %q", said)
			}
		})
	}
}
