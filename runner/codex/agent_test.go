package codex

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A person's own provider in their config.toml: the variables it reads
// (env_key, env_http_headers) reach Codex in a bare sandbox; Codex's
// built-in provider, or no file, adds none.
func TestAgentHomePassesTheProvidersVariables(t *testing.T) {
	runHome := t.TempDir()
	if got := Agent.Home.MoreEnv(runHome); len(got) != 0 {
		t.Errorf("no config.toml: %v", got)
	}
	cfg := filepath.Join(runHome, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		if err := os.WriteFile(cfg, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("model_provider = \"gw\"\n[model_providers.gw]\nbase_url = \"https://gw.example/v1\"\nenv_key = \"GW_PASS\"\nenv_http_headers = { \"X-Org\" = \"GW_ORG\" }\n")
	if got := Agent.Home.MoreEnv(runHome); !slices.Equal(got, []string{"GW_ORG", "GW_PASS"}) {
		t.Errorf("pass = %v, want the provider's env_key and header variables", got)
	}
	write("model = \"gpt-5\"\n")
	if got := Agent.Home.MoreEnv(runHome); len(got) != 0 {
		t.Errorf("built-in provider: %v", got)
	}
}
