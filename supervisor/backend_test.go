package supervisor

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolveReadsTheEnvironment(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		env  map[string]string
		want Config
	}{
		{"anthropic key and default model", Config{Backend: KindAnthropic}, map[string]string{"ANTHROPIC_API_KEY": "a"},
			Config{Backend: KindAnthropic, Model: DefaultAnthropicModel, apiKey: "a"}},
		{"openai key", Config{Backend: KindOpenAI}, map[string]string{"OPENAI_API_KEY": "o", "ANTHROPIC_API_KEY": "a"},
			Config{Backend: KindOpenAI, Model: DefaultOpenAIModel, apiKey: "o"}},
		{"sentinel variables win", Config{Backend: KindOpenAI, BaseURL: "http://file", Model: "file-model"},
			map[string]string{EnvBaseURL: "http://env/v1", EnvModel: "llama3", EnvAPIKey: "s", "OPENAI_API_KEY": "o"},
			Config{Backend: KindOpenAI, BaseURL: "http://env/v1", Model: "llama3", apiKey: "s"}},
		{"named key variable", Config{Backend: KindAnthropic, APIKeyEnv: "MY_KEY"}, map[string]string{"MY_KEY": "m", EnvAPIKey: "s"},
			Config{Backend: KindAnthropic, APIKeyEnv: "MY_KEY", Model: DefaultAnthropicModel, apiKey: "m"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.cfg.Resolve(env(c.env))
			if got.BaseURL != c.want.BaseURL || got.Model != c.want.Model || got.apiKey != c.want.apiKey {
				t.Errorf("got base=%q model=%q key=%q, want base=%q model=%q key=%q",
					got.BaseURL, got.Model, got.apiKey, c.want.BaseURL, c.want.Model, c.want.apiKey)
			}
		})
	}
}

func TestNewExplainsWhatIsMissing(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{Backend: KindAnthropic}, "set SENTINEL_SUPERVISOR_API_KEY or ANTHROPIC_API_KEY"},
		{Config{Backend: KindOpenAI}, "set SENTINEL_SUPERVISOR_API_KEY or OPENAI_API_KEY"},
		{Config{Backend: "gemini"}, `--supervisor "gemini": want one of anthropic, openai, claude-cli`},
		{Config{}, "pass --supervisor"},
		{Config{Backend: KindOpenAI, BaseURL: "http://x", Timeout: "soon"}, `timeout "soon"`},
		{Config{Backend: KindClaudeCLI, Command: "no-such-claude-binary"}, "no-such-claude-binary not found on PATH"},
	}
	for _, c := range cases {
		_, err := New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error saying %q", c.cfg, err, c.want)
		}
	}
	// a local OpenAI-compatible server needs no key
	if _, err := New(Config{Backend: KindOpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3"}); err != nil {
		t.Errorf("local server without a key: %v", err)
	}
}

func TestCheck(t *testing.T) {
	good := Verdict{"deny", "probe", "low"}
	cases := []struct {
		name    string
		answer  answer
		wantErr string
	}{
		{"answers in shape", answer{verdict: &good}, ""},
		{"free text", answer{text: "hello!"}, "not in the structured shape"},
		{"server error", answer{status: 500}, "check the base URL"},
	}
	for _, sh := range shapes {
		for _, c := range cases {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				b, _ := sh.start(t, c.answer)
				err := Check(context.Background(), b)
				if c.wantErr == "" {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("Check = %v, want %q", err, c.wantErr)
				}
			})
		}
	}
	// nothing listening
	srv, _ := fakeopenai.Start()
	url := srv.URL
	srv.Close()
	b, _ := New(Config{Backend: KindOpenAI, BaseURL: url, Model: "m"})
	if err := Check(context.Background(), b); err == nil || !strings.Contains(err.Error(), "supervisor openai m") {
		t.Fatalf("Check against a closed port = %v", err)
	}
}

// claudeCLI finds the real claude binary or skips (fails under CI=true).
func claudeCLI(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("claude")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("claude is not installed (CI=true): npm install -g @anthropic-ai/claude-code")
		}
		t.Skip("claude is not installed; skipping the claude-cli backend test")
	}
	return path
}

func TestClaudeCLIBackendAgainstAFakeModel(t *testing.T) {
	path := claudeCLI(t)
	cases := []struct {
		name   string
		script fakemodel.Script
		want   string // outcome, or a piece of the deny reason
	}{
		{"allow", fakemodel.Script{fakemodel.Reply(fakemodel.ToolUse("StructuredOutput", Verdict{"allow", "tests are the task", "low"}))}, "allow"},
		{"deny", fakemodel.Script{fakemodel.Reply(fakemodel.ToolUse("StructuredOutput", Verdict{"deny", "off task", "low"}))}, "off task"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, err := fakemodel.Start(c.script)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			home := t.TempDir()
			b, err := New(Config{Backend: KindClaudeCLI, Command: path, Model: "claude-fake", Env: []string{
				"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"), "ANTHROPIC_BASE_URL=" + srv.URL,
				"ANTHROPIC_API_KEY=sk-test", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
				"HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy="}})
			if err != nil {
				t.Fatal(err)
			}
			read := judgeGoTest(t, b, c.want)
			reqs := srv.Requests()
			if len(reqs) == 0 || !strings.Contains(reqs[0].UserText(), "go test ./...") || !strings.Contains(reqs[0].System, "Judge the request against the TASK") {
				t.Fatalf("claude did not send the judge's prompt to the model")
			}
			if !journaledJudgeTokens(read()) {
				t.Error("the journaled turn has no token count")
			}
		})
	}
}
