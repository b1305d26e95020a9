package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// Sees answers from the profile: the workspace and readable places are
// there, home and hidden places are not (hidden wins), writes only where
// the sandbox writes, and a symlink is judged by where it leads.
func TestProfileSees(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	ws := filepath.Join(root, "ws")
	tool := filepath.Join(home, ".pyenv")
	for _, d := range []string{ws, tool, filepath.Join(home, ".ssh"), filepath.Join(ws, ".git", "hooks")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".bashrc"), filepath.Join(ws, "rc")); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(root, "sandbox-tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := Profile{Workspace: ws, TempDir: tmp, Readable: []string{tool}, Hidden: []string{filepath.Join(home, ".ssh"), filepath.Join(tool, "secret")},
		Protected: []string{filepath.Join(ws, ".git", "hooks")}}
	np, err := p.normalize()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path  string
		write bool
		want  bool
	}{
		{filepath.Join(ws, "main.go"), false, true},
		{filepath.Join(ws, "main.go"), true, true},
		{filepath.Join(ws, "rc"), false, false}, // a link into home
		{filepath.Join(home, ".bashrc"), false, false},
		{filepath.Join(home, ".ssh", "id_rsa"), false, false},
		{filepath.Join(tool, "bin", "python"), false, true},
		{filepath.Join(tool, "bin", "python"), true, false},
		{filepath.Join(tool, "secret", "x"), false, false},
		{filepath.Join(ws, ".git", "hooks", "pre-commit"), false, true},
		{filepath.Join(ws, ".git", "hooks", "pre-commit"), true, false},
		{"/usr/bin/env", false, true},
		{"/usr/bin/env", true, false},
		{"/etc/shadow", false, false},
		{"/tmp/scratch.txt", true, true},
		{"/tmp/mine.txt", false, true}, // the coder's own, in its private /tmp
		{"/tmp/not-in-the-sandbox.txt", false, false},
		{"relative/path", false, false},
	} {
		if got := np.Sees(tt.path, tt.write); got != tt.want {
			t.Errorf("Sees(%s, write=%v) = %v, want %v", tt.path, tt.write, got, tt.want)
		}
	}
}
