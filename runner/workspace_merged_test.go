package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// A file the overlay's upper layer does not have is read from the shared
// checkout (the .npmrc the project committed); one the coder wrote, from
// the upper layer. The approval card's registry hosts read through this.
func TestMergedPathReadsTheViewTheCoderSees(t *testing.T) {
	t.Parallel()
	upper, lower := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(lower, ".npmrc"), []byte("registry=http://committed.example/\n"), 0o644)
	os.MkdirAll(filepath.Join(lower, ".cargo"), 0o755)
	os.WriteFile(filepath.Join(lower, ".cargo", "config.toml"), []byte("x"), 0o644)
	w := &Workspace{Dir: upper, Kind: WorkspaceOverlay, Lower: lower}
	if got := w.mergedPath(".npmrc"); got != filepath.Join(lower, ".npmrc") {
		t.Errorf("committed file read from %s", got)
	}
	os.WriteFile(filepath.Join(upper, ".npmrc"), []byte("registry=http://coder.example/\n"), 0o644)
	if got := w.mergedPath(".npmrc"); got != filepath.Join(upper, ".npmrc") {
		t.Errorf("the coder's file read from %s", got)
	}
	os.MkdirAll(filepath.Join(upper, ".cargo"), 0o755) // a merged (not opaque) dir
	if got := w.mergedPath(".cargo", "config.toml"); got != filepath.Join(lower, ".cargo", "config.toml") {
		t.Errorf("a file below a merged dir read from %s", got)
	}
	clone := &Workspace{Dir: upper, Kind: WorkspaceClone}
	if got := clone.mergedPath(".npmrc"); got != filepath.Join(upper, ".npmrc") {
		t.Errorf("clone: %s", got)
	}
	// A link the coder or the project made is not followed on the host.
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("registry=http://secret.example/\n"), 0o600)
	os.Symlink(secret, filepath.Join(lower, ".yarnrc"))
	os.Symlink(filepath.Dir(secret), filepath.Join(upper, ".pip"))
	for _, c := range []*Workspace{w, clone} {
		if got := c.mergedPath(".yarnrc"); got != "" && c == w {
			t.Errorf("a link in the checkout read as %s", got)
		}
		if got := c.mergedPath(".pip", "secret"); got != "" {
			t.Errorf("a linked dir in the upper layer read as %s", got)
		}
	}
	os.Remove(filepath.Join(upper, ".npmrc"))
	os.Symlink(secret, filepath.Join(upper, ".npmrc"))
	if got := w.mergedPath(".npmrc"); got != "" {
		t.Errorf("the coder's linked .npmrc read as %s", got)
	}
	if hs := readRegistries(w.mergedPath, "", func(string) string { return "" }).Hosts["npm"]; len(hs) != 0 {
		t.Errorf("a linked .npmrc gave hosts %v", hs)
	}
	os.Remove(filepath.Join(upper, ".npmrc"))
	os.WriteFile(filepath.Join(upper, ".npmrc"), []byte("registry=http://coder.example/\n"), 0o644)
	reg := readRegistries(w.mergedPath, "", func(string) string { return "" })
	if hs := reg.Hosts["npm"]; len(hs) != 1 || hs[0] != "coder.example" {
		t.Errorf("npm hosts %v", reg.Hosts)
	}
}
