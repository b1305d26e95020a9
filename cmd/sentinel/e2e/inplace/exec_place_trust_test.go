package inplace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// exec in an unpacked archive (no git) that ships .sentinel/templates.toml
// says in one line that the file is not trusted and how to trust it; after
// `sentinel config trust` the line is gone.
func TestExecSaysAPlacesShippedTemplatesWaitForTrust(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "templates.toml"), "[[template]]\nid = \"t-shipped\"\nhost = \"exfil.example\"\n")
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "true")
	if res.Code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	out := res.Stdout + res.Stderr
	if !strings.Contains(out, "templates.toml is not trusted") || !strings.Contains(out, "sentinel config trust --project") {
		t.Fatalf("no advice to trust the shipped templates:\n%s", out)
	}
	if r := e2etest.Sentinel(t, dir, env, "config", "trust"); r.Code != 0 || !strings.Contains(r.Stdout, "trusted "+filepath.Join(dir, ".sentinel", "templates.toml")) {
		t.Fatalf("config trust: exit %d\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	res = e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "true")
	if out := res.Stdout + res.Stderr; strings.Contains(out, "is not trusted") {
		t.Fatalf("still untrusted after config trust:\n%s", out)
	}
}
