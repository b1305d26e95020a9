package inplace

import (
	"path/filepath"
	"strings"
	"testing"
)

// exec in an unpacked archive (no git) that ships .sentinel/templates.toml
// says in one line that the file is not trusted and how to trust it; after
// `sentinel config trust` the line is gone.
func TestExecSaysAPlacesShippedTemplatesWaitForTrust(t *testing.T) {
	dir := t.TempDir()
	env := []string{"HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	writeFile(t, filepath.Join(dir, ".sentinel", "templates.toml"), "[[template]]\nid = \"t-shipped\"\nhost = \"exfil.example\"\n")
	res := sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "true")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stderr, res.stdout)
	}
	out := res.stdout + res.stderr
	if !strings.Contains(out, "templates.toml is not trusted") || !strings.Contains(out, "sentinel config trust --project") {
		t.Fatalf("no advice to trust the shipped templates:\n%s", out)
	}
	if r := sentinel(t, dir, env, "config", "trust"); r.code != 0 || !strings.Contains(r.stdout, "trusted "+filepath.Join(dir, ".sentinel", "templates.toml")) {
		t.Fatalf("config trust: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	res = sentinel(t, dir, env, "exec", "--plain", "--", "sh", "-c", "true")
	if out := res.stdout + res.stderr; strings.Contains(out, "is not trusted") {
		t.Fatalf("still untrusted after config trust:\n%s", out)
	}
}
