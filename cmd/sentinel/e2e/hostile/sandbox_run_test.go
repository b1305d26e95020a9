package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// `sandbox run --agent X` must leave the agent's start-up files in the real
// home as they are — hooks in ~/.claude/settings.json, MCP servers in
// ~/.claude.json, ~/.codex/config.toml, ~/.gemini/settings.json load the
// next time the person starts the agent unsandboxed — and must not create
// the ones that do not exist yet. The command still gets its own copy.
func TestSandboxRunAgentCannotTouchTheRealStartupFiles(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	real := map[string]string{
		".claude/settings.json": `{"theme":"real"}`,
		".claude.json":          `{"real":true}`,
		".gemini/settings.json": `{"real":"gemini"}`,
	}
	for f, body := range real {
		e2etest.WriteFile(t, filepath.Join(home, f), body)
	}
	os.MkdirAll(filepath.Join(home, ".codex"), 0o755) // there, but no config.toml yet
	missing := []string{".claude/settings.local.json", ".codex/config.toml", ".gemini/extensions.json"}
	// A home left by a sentinel killed before it could clean up (no such pid).
	e2etest.WriteFile(t, filepath.Join(home, ".cache", "sentinel", "sandbox-homes", "home-99999999-1", ".claude.json"), "{}")
	ws := t.TempDir()
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache")}
	cases := []struct {
		agent, script, sees string
	}{
		{"claude", `echo x > ~/.claude/settings.json; echo y > ~/.claude.json; echo z > ~/.claude/settings.local.json;
			echo x > "$REAL/.claude/settings.json"; echo y > "$REAL/.claude.json"; echo z > "$REAL/.claude/settings.local.json";
			cat ~/.claude.json`, "y"},
		{"codex", `mkdir -p ~/.codex; echo 'notify = ["evil"]' > ~/.codex/config.toml; echo 'notify = ["evil"]' > "$REAL/.codex/config.toml"; echo ok`, "ok"},
		{"gemini", `cat ~/.gemini/settings.json; echo '{"hooks":1}' > ~/.gemini/settings.json; echo '{"hooks":1}' > "$REAL/.gemini/settings.json"; echo 1 > "$REAL/.gemini/extensions.json"`, `{"real":"gemini"}`},
	}
	for _, c := range cases {
		t.Run(c.agent, func(t *testing.T) {
			res := e2etest.Sentinel(t, ws, env, "sandbox", "run", "--workspace", ws, "--agent", c.agent, "--",
				"sh", "-c", "REAL='"+home+"'; "+c.script)
			if !strings.Contains(res.Stdout, c.sees) {
				t.Errorf("the command did not get its own copy of the agent's files (want %q in its output): exit %d\n%s\n%s", c.sees, res.Code, res.Stdout, res.Stderr)
			}
			for f, body := range real {
				if b, err := os.ReadFile(filepath.Join(home, f)); err != nil || string(b) != body {
					t.Errorf("~/%s changed: %q %v", f, b, err)
				}
			}
			for _, f := range missing {
				if _, err := os.Stat(filepath.Join(home, f)); err == nil {
					t.Errorf("~/%s was created", f)
				}
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(home, ".cache", "sentinel", "sandbox-homes", "*")); len(left) != 0 {
		t.Errorf("per-run homes were left behind: %v", left)
	}
}

// The project config's [sandbox] hidden applies to `sandbox run`; its
// readable does only once the file is trusted.
func TestSandboxRunUsesTheProjectConfig(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + t.TempDir()}
	e2etest.WriteFile(t, filepath.Join(ws, "secret.txt"), "HIDDEN-CONTENT\n")
	outside := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(outside, "sdk.txt"), "SDK-CONTENT\n")
	cfgPath := filepath.Join(ws, ".sentinel", "config.toml")
	e2etest.WriteFile(t, cfgPath, "[sandbox]\nhidden = [\""+filepath.Join(ws, "secret.txt")+"\"]\nreadable = [\""+outside+"\"]\n")
	show := []string{"sandbox", "run", "--workspace", ws, "--", "sh", "-c", "cat secret.txt '" + filepath.Join(outside, "sdk.txt") + "'; true"}

	res := e2etest.Sentinel(t, ws, env, show...)
	if strings.Contains(res.Stdout, "HIDDEN-CONTENT") {
		t.Fatalf("a file the project config hides was printed:\n%s", res.Stdout)
	}
	if strings.Contains(res.Stdout, "SDK-CONTENT") {
		t.Fatalf("an untrusted project config made a path readable:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stderr, "sentinel: "+cfgPath+" is not trusted") || !strings.Contains(res.Stderr, "[sandbox] readable") {
		t.Errorf("no warning naming the file and the setting left out:\n%s", res.Stderr)
	}

	if tr := e2etest.Sentinel(t, ws, env, "config", "trust", "--project", ws); tr.Code != 0 {
		t.Fatalf("config trust: %d %s %s", tr.Code, tr.Stdout, tr.Stderr)
	}
	res = e2etest.Sentinel(t, ws, env, show...)
	if !strings.Contains(res.Stdout, "SDK-CONTENT") || strings.Contains(res.Stdout, "HIDDEN-CONTENT") || strings.Contains(res.Stderr, "not trusted") {
		t.Fatalf("trusted: want the readable path and still not the hidden file:\n%s\n%s", res.Stdout, res.Stderr)
	}
}
