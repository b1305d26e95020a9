package sandbox

import (
	"path/filepath"
	"strings"
	"testing"
)

// Caches live in the person's cache dir, one set per project, never inside
// the project; an agent that keeps its state under ~/.cache keeps
// XDG_CACHE_HOME pointing there.
func TestWithCaches(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	proj := filepath.Join(root, "proj")
	p, err := Profile{Workspace: proj}.WithCaches(proj)
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Join(p.Env, "\n")
	dir, _ := ProjectCacheDir(proj)
	if !strings.HasPrefix(dir, filepath.Join(root, "cache", "sentinel", "projects")+"/") || within(dir, proj) {
		t.Fatalf("project cache dir %s: want under the person's cache dir, outside the project", dir)
	}
	for _, want := range []string{"GOCACHE=" + dir + "/go-build", "XDG_CACHE_HOME=" + dir + "/xdg", "PIP_CACHE_DIR=" + dir + "/pip", "npm_config_cache=" + dir + "/npm"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %s:\n%s", want, env)
		}
	}
	if len(p.Writable) != 1 || p.Writable[0] != dir {
		t.Errorf("writable %v, want only %s", p.Writable, dir)
	}
	other, _ := ProjectCacheDir(filepath.Join(root, "other"))
	if other == dir {
		t.Errorf("two projects share %s", dir)
	}
	ap := Profile{Workspace: proj, Writable: []string{filepath.Join(home, ".cache", "agent")}}
	p, _ = ap.WithCaches(proj)
	if env := strings.Join(p.Env, "\n"); strings.Contains(env, "XDG_CACHE_HOME=") || !strings.Contains(env, "GOCACHE=") {
		t.Errorf("with an agent's state under ~/.cache: env\n%s\nwant GOCACHE but no XDG_CACHE_HOME", env)
	}
}
