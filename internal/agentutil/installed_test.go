package agentutil

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, body string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A version is read from the package the program lies in (through its
// links), or from the name of a native install's file, and only from a
// package.json of the named package.
func TestInstalledVersion(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "lib", "node_modules", "@openai", "codex")
	write(t, filepath.Join(pkg, "package.json"), `{"name": "@openai/codex", "version": "0.171.0"}`)
	native := write(t, filepath.Join(pkg, "vendor", "x86_64-unknown-linux-musl", "codex", "codex"), "ELF")
	js := write(t, filepath.Join(pkg, "bin", "codex.js"), "")
	link := filepath.Join(root, "bin", "codex")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(js, link); err != nil {
		t.Fatal(err)
	}
	claudeNative := write(t, filepath.Join(root, "share", "claude", "versions", "2.1.40"), "ELF")
	other := filepath.Join(root, "other")
	write(t, filepath.Join(other, "package.json"), `{"name": "left-pad", "version": "9.9.9"}`)
	lone := write(t, filepath.Join(other, "bin", "codex"), "")
	for _, tc := range []struct {
		prog, want string
	}{
		{link, "0.171.0"}, {native, "0.171.0"}, {js, "0.171.0"},
		{claudeNative, "2.1.40"}, {lone, ""}, {filepath.Join(root, "nope"), ""},
	} {
		if got, _ := InstalledVersion(tc.prog, "@openai/codex", "@anthropic-ai/claude-code"); got != tc.want {
			t.Errorf("InstalledVersion(%s) = %q, want %q", tc.prog, got, tc.want)
		}
	}
}
