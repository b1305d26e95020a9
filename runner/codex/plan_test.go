package codex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func personFrom(t *testing.T, config, auth string) *Person {
	t.Helper()
	dir := t.TempDir()
	if config != "" {
		os.WriteFile(filepath.Join(dir, "config.toml"), []byte(config), 0o600)
	}
	if auth != "" {
		os.WriteFile(filepath.Join(dir, "auth.json"), []byte(auth), 0o600)
	}
	p, err := LoadPerson(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decoded is the plan's config.toml read back as Codex would.
func decoded(t *testing.T, pl Plan) map[string]any {
	t.Helper()
	text, err := ConfigTOML(pl)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if _, err := toml.Decode(text, &m); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return m
}

func TestPlanUsesThePersonsCustomProvider(t *testing.T) {
	p := personFrom(t, `model = "m1"
model_provider = "gw"
model_reasoning_effort = "high"
approval_policy = "never"
approvals_reviewer = "auto_review"
notify = ["x"]
[model_providers.gw]
base_url = "https://gw.example:8443/v1"
env_key = "GW_PASS"
env_http_headers = { "X-Org" = "GW_ORG" }
[projects."/w"]
trust_level = "trusted"
[mcp_servers.s]
command = "srv"
[mcp_servers.s.tools.t]
approval_mode = "approve"
[tui]
animations = false
notifications = ["x"]
`, "")
	pl, err := NewPlan(Provider{FromEnv: true, BaseURL: "http://ignored"}, p, "WHERE")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pl.EnvKeys, []string{"GW_ORG", "GW_PASS"}) || !slices.Equal(pl.AllowHosts(), []string{"gw.example:8443"}) {
		t.Errorf("env keys %q hosts %q", pl.EnvKeys, pl.AllowHosts())
	}
	c := decoded(t, pl)
	if c["model"] != "m1" || c["model_provider"] != "gw" || c["model_reasoning_effort"] != "high" {
		t.Errorf("model settings: %v", c)
	}
	for _, k := range []string{"approval_policy", "notify", "projects"} {
		if _, ok := c[k]; ok {
			t.Errorf("%s reached the run's config", k)
		}
	}
	// The person's "Animations" off (display only) is kept; nothing else of [tui].
	if tui, _ := c["tui"].(map[string]any); len(tui) != 1 || tui["animations"] != false {
		t.Errorf("[tui] = %v, want only the person's animations = false", c["tui"])
	}
	if c["approvals_reviewer"] != "user" || c["sandbox_mode"] != SandboxMode || c["developer_instructions"] != "WHERE" {
		t.Errorf("forced settings: %v", c)
	}
	sep := c["shell_environment_policy"].(map[string]any)
	if sep["ignore_default_excludes"] != false || len(sep["exclude"].([]any)) != 2 {
		t.Errorf("shell_environment_policy = %v", sep)
	}
	s := c["mcp_servers"].(map[string]any)["s"].(map[string]any)
	if s["default_tools_approval_mode"] != "prompt" || s["tools"].(map[string]any)["t"].(map[string]any)["approval_mode"] != "prompt" {
		t.Errorf("mcp server = %v", s)
	}
}

func TestPlanSignInAndErrors(t *testing.T) {
	// API key sign-in, no variables: Codex's own provider with auth.json.
	pl, err := NewPlan(Provider{}, personFrom(t, "", `{"OPENAI_API_KEY": "sk-x"}`), "")
	if err != nil || pl.ProviderID != "openai" || !pl.Auth || len(pl.EnvKeys) != 0 || pl.AllowHosts()[0] != "api.openai.com:443" {
		t.Errorf("api key sign-in: %+v %v", pl, err)
	}
	// ChatGPT sign-in: its hosts.
	pl, _ = NewPlan(Provider{}, personFrom(t, "", `{"tokens": {"id_token": "x"}}`), "")
	if !slices.Equal(pl.AllowHosts(), []string{"chatgpt.com:443", chatgptAuthHost}) {
		t.Errorf("chatgpt hosts = %q", pl.AllowHosts())
	}
	// OPENAI_API_KEY set wins over the sign-in.
	pl, _ = NewPlan(Provider{FromEnv: true}, personFrom(t, "", `{"OPENAI_API_KEY": "sk-x"}`), "")
	if pl.ProviderID != ProviderID || pl.Auth || !slices.Equal(pl.EnvKeys, []string{"OPENAI_API_KEY"}) {
		t.Errorf("env provider: %+v", pl)
	}
	for cfg, want := range map[string]string{
		`model_provider = "nope"`:                                   "defines no [model_providers.nope]",
		"model_provider = \"x\"\n[model_providers.x]\nname = \"x\"": "has no base_url",
	} {
		if _, err := NewPlan(Provider{}, personFrom(t, cfg, ""), ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", cfg, err, want)
		}
	}
	bad := t.TempDir()
	os.WriteFile(filepath.Join(bad, "config.toml"), []byte("model = "), 0o600)
	if _, err := LoadPerson(bad); err == nil || !strings.Contains(err.Error(), "config.toml does not parse") {
		t.Errorf("LoadPerson(broken) = %v", err)
	}
}
