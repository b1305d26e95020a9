package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/policy"
)

// The real Codex with a person's own ~/.codex (config.toml with a custom
// provider, AGENTS.md, an MCP server, auth.json), prepared the way
// `sentinel run` does it (Adapter.Prepare), and no OPENAI_* variable.

const (
	personSecret   = "pass-4f1c9e-not-a-key-name" // the custom provider's key
	agentsMarker   = "PERSON-AGENTS-MARKER-7d3a"
	devInstrMarker = "PERSON-DEVELOPER-INSTRUCTIONS-2b8e"
	whereAmIMarker = "WHERE-AM-I-MARKER: you run under Sentinel in a disposable copy"
)

// personHome writes a person's CODEX_HOME: config.toml (text), AGENTS.md
// with agentsMarker, and auth.json when auth is set.
func personHome(t *testing.T, config, auth string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"config.toml": config, "AGENTS.md": "Always follow this: " + agentsMarker + "\n"}
	if auth != "" {
		files["auth.json"] = auth
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot is every file under dir with its content, to prove the person's
// setup was not written.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b := []byte(nil)
		if !fi.IsDir() {
			b, _ = os.ReadFile(p)
		}
		out[p] = fi.Mode().String() + " " + string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// prepare writes the run's CODEX_HOME from the person's dir, as the runner
// does, with no provider from the environment.
func (w *world) prepare(t *testing.T, person string) {
	t.Helper()
	a := New(Options{Binary: requireCodex(t)})
	n, err := a.Prepare(RunPaths{Workspace: w.ws, StateDir: w.codexHome, PersonDir: person, WhereAmI: whereAmIMarker})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range n.PassEnv {
		if strings.HasPrefix(k, "OPENAI") {
			t.Errorf("PassEnv has %s; this run has no OPENAI_* and must not need one", k)
		}
	}
	host := strings.TrimPrefix(w.model.URL, "http://")
	if !slices.Contains(n.AllowHosts, host) {
		t.Errorf("AllowHosts = %q, want the person's provider host %s", n.AllowHosts, host)
	}
}

// hostileConfig is a person's config.toml whose provider Sentinel must use
// and whose every approval-bypassing setting it must not.
func hostileConfig(w *world, mcpCommand string) string {
	return fmt.Sprintf(`model = "person-model"
model_provider = "mine"
profile = "yolo"
approval_policy = "never"
approvals_reviewer = "auto_review"
sandbox_mode = "read-only"
notify = ["sh", "-c", "touch %[1]s/notified"]
developer_instructions = %[3]q

[shell_environment_policy]
inherit = "all"
ignore_default_excludes = true

[profiles.yolo]
model = "not-this-model"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[projects.%[1]q]
trust_level = "trusted"

[features]
hooks = true

[model_providers.mine]
name = "My gateway"
base_url = %[2]q
env_key = "MY_PROVIDER_PASS"
wire_api = "responses"

[mcp_servers.fake]
command = %[4]q
env = { %[5]s = %[1]q, %[6]s = "1" }

[mcp_servers.fake.tools.touch_marker]
approval_mode = "approve"
`, w.ws, w.model.BaseURL(), devInstrMarker, mcpCommand, envFakeMCP, envFakeMCPReadOnly)
}

// A person's custom provider (env_key naming a variable no default
// exclusion covers), their model, AGENTS.md, developer instructions and MCP
// server all work under Sentinel, while their config's approval_policy,
// approvals_reviewer, profile, trusted project, notify, hooks, MCP
// auto-approval and shell environment policy do not take over.
func TestPersonCodexSetupWorksButCannotBypassSentinel(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, fr.Script{
		fr.Reply(fr.ExecCommand("sh ./mark.sh", "")),
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{{Name: fakeMCPTool, Namespace: "mcp__fake", Arguments: map[string]any{"name": "mcp-marker"}}}},
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand("sh ./see-env.sh", "")}},
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{fr.Text("Done.")}},
	}, approveAll())
	w.inProcess = true
	script(t, w, "mark.sh", "touch made-by-codex")
	// The project's own script writes the coder's environment out (the
	// policy denies env > file typed as a command: a dump into a file).
	script(t, w, "see-env.sh", "env > env-seen.txt")
	// The repository's own config would run a notify command if the
	// person's trust for this path were kept.
	if err := os.MkdirAll(filepath.Join(w.ws, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := fmt.Sprintf("approval_policy = \"never\"\nnotify = [\"sh\", \"-c\", \"touch %s/repo-notified\"]\n", w.ws)
	if err := os.WriteFile(filepath.Join(w.ws, ".codex", "config.toml"), []byte(repo), 0o644); err != nil {
		t.Fatal(err)
	}
	person := personHome(t, hostileConfig(w, exe), "")
	before := snapshot(t, person)
	w.prepare(t, person)
	w.env = []string{"MY_PROVIDER_PASS=" + personSecret}
	s := w.run(t, "mark it")

	if s.Status() != "completed" {
		t.Errorf("turn status = %q, want completed", s.Status())
	}
	reqs := w.model.Requests()
	if len(reqs) < 4 {
		t.Fatalf("the fake model saw %d requests, want 4: the person's provider did not carry the run", len(reqs))
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer "+personSecret {
		t.Errorf("Authorization = %q, want the key from the person's env_key variable", got)
	}
	if reqs[0].Model != "person-model" {
		t.Errorf("model = %q, want the person's model", reqs[0].Model)
	}
	body := string(reqs[0].Body)
	for _, m := range []string{agentsMarker, devInstrMarker, "WHERE-AM-I-MARKER"} {
		if !strings.Contains(body, m) {
			t.Errorf("the model never saw %q", m)
		}
	}
	// Every action came through the broker: the command and the MCP tool.
	var kinds []string
	for _, r := range w.requests(t) {
		kinds = append(kinds, string(r.Kind)+" "+r.Command+r.Tool)
	}
	want := []string{"shell sh ./mark.sh", "mcp mcp__fake__touch_marker", "shell sh ./see-env.sh"}
	if !slices.Equal(kinds, want) {
		t.Errorf("broker requests = %q, want %q", kinds, want)
	}
	for _, f := range []string{"made-by-codex", "mcp-marker", "env-seen.txt"} {
		if _, err := os.Stat(filepath.Join(w.ws, f)); err != nil {
			t.Errorf("%s: the approved action did not run: %v", f, err)
		}
	}
	if env, _ := os.ReadFile(filepath.Join(w.ws, "env-seen.txt")); strings.Contains(string(env), personSecret) {
		t.Error("the provider's key reached the coder's command environment")
	}
	for _, f := range []string{"notified", "repo-notified"} {
		if _, err := os.Stat(filepath.Join(w.ws, f)); err == nil {
			t.Errorf("%s exists: a notify command from the person's or the repository's config ran", f)
		}
	}
	if after := snapshot(t, person); !mapsEqual(before, after) {
		t.Errorf("the person's CODEX_HOME changed:\nbefore %q\nafter  %q", before, after)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A person signed in with an API key (auth.json, as `codex login
// --with-api-key` writes it) and no key variable anywhere: Codex's built-in
// provider uses the copied sign-in.
func TestPersonAuthJSONAPIKeySignIn(t *testing.T) {
	const key = "sk-from-auth-json-e41b"
	w := newWorld(t, fr.Script{
		fr.Reply(fr.ExecCommand("sh ./mark.sh", "")),
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{fr.Text("Done.")}},
	}, nil) // nobody: the command is denied, the run still completes
	w.inProcess = true
	script(t, w, "mark.sh", "touch made-by-codex")
	// The project's own script writes the coder's environment out (the
	// policy denies env > file typed as a command: a dump into a file).
	script(t, w, "see-env.sh", "env > env-seen.txt")
	config := fmt.Sprintf("model = \"gpt-5.5\"\nopenai_base_url = %q\n", w.model.BaseURL())
	person := personHome(t, config, `{"auth_mode": "apikey", "OPENAI_API_KEY": "`+key+`"}`)
	before := snapshot(t, person)
	w.prepare(t, person)
	s := w.run(t, "mark it")

	reqs := w.model.Requests()
	if len(reqs) == 0 {
		t.Fatal("codex never reached the model with the person's auth.json sign-in")
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer "+key {
		t.Errorf("Authorization = %q, want the auth.json key", got)
	}
	if s.Status() != "completed" {
		t.Errorf("turn status = %q, want completed", s.Status())
	}
	if ds := w.decisions(t); len(ds) != 1 || ds[0].Allowed() {
		t.Errorf("decisions = %+v, want the command asked about and denied", ds)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "made-by-codex")); err == nil {
		t.Error("the command ran without an approval")
	}
	if after := snapshot(t, person); !mapsEqual(before, after) {
		t.Errorf("the person's CODEX_HOME changed:\nbefore %q\nafter  %q", before, after)
	}
}

// The MCP tool call's broker request names the tool as the policy's rules
// do, so a person's rule can decide it; a deny reaches the model.
func TestMCPToolDeniedByPolicyIsDeclined(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, fr.Script{
		fr.Reply(fr.Item{Name: fakeMCPTool, Namespace: "mcp__fake", Arguments: map[string]any{"name": "mcp-marker"}}),
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{fr.Text("Done.")}},
	}, nil) // nobody to ask: an MCP tool no rule allows is denied
	w.inProcess = true
	config := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "mine"
[model_providers.mine]
name = "mine"
base_url = %q
env_key = "MY_PROVIDER_PASS"
[mcp_servers.fake]
command = %q
env = { %s = %q, %s = "1" }
`, w.model.BaseURL(), exe, envFakeMCP, w.ws, envFakeMCPReadOnly)
	w.prepare(t, personHome(t, config, ""))
	w.env = []string{"MY_PROVIDER_PASS=" + personSecret}
	w.run(t, "touch it")

	reqs := w.requests(t)
	if len(reqs) != 1 || reqs[0].Kind != policy.KindMCP || reqs[0].Tool != "mcp__fake__touch_marker" {
		t.Fatalf("broker requests = %+v, want one mcp request for mcp__fake__touch_marker", reqs)
	}
	if ds := w.decisions(t); len(ds) != 1 || ds[0].Allowed() {
		t.Errorf("decisions = %+v, want a deny", ds)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "mcp-marker")); err == nil {
		t.Error("the denied MCP tool ran")
	}
	var told bool
	for _, r := range w.model.Requests()[1:] {
		for _, u := range r.UserTexts() {
			told = told || strings.Contains(u, "mcp__fake__touch_marker") && strings.Contains(u, "denied")
		}
	}
	if !told {
		t.Error("the model was not told the MCP tool call was denied")
	}
}
