package codex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestConfigTOML(t *testing.T) {
	var c struct {
		Model          string `toml:"model"`
		ModelProvider  string `toml:"model_provider"`
		ApprovalPolicy string `toml:"approval_policy"`
		SandboxMode    string `toml:"sandbox_mode"`
		Features       map[string]bool
		Agents         struct{ Enabled *bool }
		Providers      map[string]struct {
			BaseURL string `toml:"base_url"`
			EnvKey  string `toml:"env_key"`
			WireAPI string `toml:"wire_api"`
		} `toml:"model_providers"`
	}
	text, err := ConfigTOML(PlanFor(Provider{BaseURL: "http://127.0.0.1:5000/v1", EnvKey: "MY_KEY", Model: `gpt-"x"`}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := toml.Decode(text, &c); err != nil {
		t.Fatalf("config.toml does not parse: %v\n%s", err, text)
	}
	p := c.Providers[ProviderID]
	if c.ModelProvider != ProviderID || p.BaseURL != "http://127.0.0.1:5000/v1" || p.EnvKey != "MY_KEY" || p.WireAPI != "responses" {
		t.Errorf("provider = %q %+v", c.ModelProvider, p)
	}
	if c.Model != `gpt-"x"` {
		t.Errorf("model = %q", c.Model)
	}
	if c.ApprovalPolicy != "" {
		t.Errorf("approval_policy = %q in config.toml; Codex 0.171 refuses to start with \"untrusted\" there (it goes on thread/start)", c.ApprovalPolicy)
	}
	if c.SandboxMode != SandboxMode {
		t.Errorf("sandbox_mode = %q", c.SandboxMode)
	}
	for _, f := range []string{"hooks", "plugins", "apps"} {
		if on, ok := c.Features[f]; !ok || on {
			t.Errorf("feature %s is not turned off", f)
		}
	}
	if c.Agents.Enabled == nil || *c.Agents.Enabled {
		t.Error("subagents are not turned off")
	}
	def, _ := ConfigTOML(PlanFor(Provider{}))
	if !strings.Contains(def, `base_url = "`+DefaultBaseURL+`"`) || !strings.Contains(def, `env_key = "OPENAI_API_KEY"`) {
		t.Errorf("default provider:\n%s", def)
	}
}

func TestPrepareWritesStateAndNamesSandboxNeeds(t *testing.T) {
	state := filepath.Join(t.TempDir(), "ws.codex")
	a := New(Options{Binary: "/usr/bin/true", Provider: Provider{BaseURL: "http://127.0.0.1:7777/v1"}})
	n, err := a.Prepare(RunPaths{Workspace: t.TempDir(), StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"config.toml", "rules/sentinel.rules"} {
		if _, err := os.Stat(filepath.Join(state, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if !slices.Equal(n.Writable, []string{state}) {
		t.Errorf("writable = %q", n.Writable)
	}
	if !slices.Contains(n.Protected, filepath.Join(state, "config.toml")) || !slices.Contains(n.Protected, filepath.Join(state, "rules")) {
		t.Errorf("protected = %q, want config.toml and rules", n.Protected)
	}
	if !slices.Equal(n.AllowHosts, []string{"127.0.0.1:7777"}) {
		t.Errorf("allow hosts = %q", n.AllowHosts)
	}
	if !slices.Contains(n.PassEnv, "OPENAI_API_KEY") || !slices.Contains(n.DropEnv, "CODEX_HOME") {
		t.Errorf("pass %q drop %q", n.PassEnv, n.DropEnv)
	}
	if !slices.Contains(a.Env(), "CODEX_HOME="+state) {
		t.Errorf("env %q lacks the run's CODEX_HOME", a.Env())
	}
	if _, err := a.Prepare(RunPaths{}); err == nil {
		t.Error("Prepare without a state dir succeeded")
	}
}

func TestAllowHosts(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "api.openai.com:443",
		"https://api.openai.com/v1": "api.openai.com:443",
		"http://127.0.0.1:8080/v1":  "127.0.0.1:8080",
		"http://models.internal/v1": "models.internal:80",
		"https://[::1]:9443/v1":     "[::1]:9443",
	} {
		base := in
		if base == "" {
			base = (Provider{}).baseURL()
		}
		if got := allowHosts(base); len(got) != 1 || got[0] != want {
			t.Errorf("allowHosts(%q) = %q, want %q", in, got, want)
		}
	}
}
