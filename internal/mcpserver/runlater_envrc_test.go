//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The person's .envrc loads local/dev.sh and .env.dev (direnv re-checks
// only the .envrc, h/ipatk8): the file tools refuse to write them, and an
// unrestricted command cannot either (held read-only like the .envrc).
func TestFilesThePersonsEnvrcLoadsAreHeldLikeIt(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	for rel, body := range map[string]string{
		".envrc":       "source_env_if_exists local/dev.sh\ndotenv .env.dev\n",
		"local/dev.sh": "export A=1\n",
		".env.dev":     "A=1\n",
	} {
		p := filepath.Join(app, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	mustRefuse(t, cs, "edit", map[string]any{"path": app + "/local/dev.sh", "content": "touch PWNED\n"}, ClassReadOnlyPath)
	got := mustAllow(t, cs, "exec", map[string]any{"command": "for p in local/dev.sh .env.dev; do echo 'touch PWNED' > $p && echo WROTE $p; done; echo done"})
	if !strings.Contains(got, "done") || strings.Contains(got, "WROTE") {
		t.Errorf("a command wrote a file the .envrc loads:\n%s", got)
	}
	for _, rel := range []string{"local/dev.sh", ".env.dev"} {
		if b, _ := os.ReadFile(filepath.Join(app, rel)); strings.Contains(string(b), "PWNED") {
			t.Errorf("%s was rewritten: %s", rel, b)
		}
	}
}
