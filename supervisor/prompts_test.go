package supervisor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinPromptsHaveEveryKeyAndRender(t *testing.T) {
	p := DefaultPrompts()
	for _, k := range promptKeys {
		out, err := p.Render(k, map[string]any{"Task": "T", "Request": "R", "Kind": "shell", "PolicyReason": "P",
			"Recent": "", "Decisions": "", "Validations": "", "Summary": "", "Diffstat": "", "Diff": "", "Ledger": "", "Steering": "", "Detail": "D", "Message": "M"})
		if err != nil {
			t.Errorf("%s: %v", k, err)
		}
		if strings.TrimSpace(out) == "" {
			t.Errorf("%s renders empty", k)
		}
	}
}

func writePrompts(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prompts.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPromptOverrideReachesTheModel(t *testing.T) {
	path := writePrompts(t, "[judge]\nsystem = \"\"\"\nYOU ARE THE CUSTOM JUDGE. Task: {{.Task}}\n\"\"\"\n")
	p, err := LoadPrompts(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			b, sent := sh.start(t, answer{verdict: &Verdict{"deny", "no", "low"}})
			decide(t, NewSupervisor(Options{Backend: b, Prompts: p, Task: "rename foo"}), shellPrompt("ls"))
			got := sent()[0]
			if !strings.Contains(got, "YOU ARE THE CUSTOM JUDGE. Task: rename foo") {
				t.Errorf("the override did not reach the model:\n%s", got)
			}
			if strings.Contains(got, "You are the supervisor of an AI coding agent") {
				t.Errorf("the built-in system prompt was still sent")
			}
			if !strings.Contains(got, "THE REQUEST (shell)") {
				t.Errorf("keys the file leaves out must keep the built-in text:\n%s", got)
			}
		})
	}
}

func TestPromptsFromEnvironment(t *testing.T) {
	path := writePrompts(t, "[check]\nuser = \"ping\"\n")
	cfg := Config{Backend: KindOpenAI}.Resolve(func(k string) string {
		if k == EnvPrompts {
			return path
		}
		return ""
	})
	if cfg.Prompts != path {
		t.Fatalf("Prompts = %q, want %q from %s", cfg.Prompts, path, EnvPrompts)
	}
}

func TestMalformedPromptsFileNamesFileLineAndKey(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"bad toml", "[judge]\nsystem = \"unterminated\n", ":2: "},
		{"unknown key", "[judge]\nsystem = \"ok\"\nsytem = \"typo\"\n", `:3: unknown prompt key "judge.sytem"`},
		{"unknown section", "[juge]\nsystem = \"x\"\n", `:2: unknown prompt key "juge.system"`},
		{"not text", "[judge]\n\nuser = 42\n", `:3: prompt "judge.user" must be text`},
		{"broken template", "[review]\nuser = \"{{.Task\"\n", `:2: prompt "review.user": template`},
		{"top-level key", "judge = \"x\"\n", `:1: "judge" is not a [section]`},
		{"unknown field", "[judge]\nuser = \"{{.Nope}}\"\n", `:2: prompt "judge.user" uses a field it does not have`},
		{"unknown steer field", "[steer]\nmasked_exit = \"{{.Command}}\"\n", `:2: prompt "steer.masked_exit" uses a field`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writePrompts(t, c.body)
			_, err := LoadPrompts(path)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to start with the file and say %q", err, c.want)
			}
		})
	}
}

func TestMissingPromptsFileIsAnError(t *testing.T) {
	_, err := LoadPrompts(filepath.Join(t.TempDir(), "nope.toml"))
	if err == nil || !strings.Contains(err.Error(), "nope.toml") {
		t.Fatalf("error %v", err)
	}
}
