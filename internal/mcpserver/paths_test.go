//go:build unix

package mcpserver

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree makes a directory tree with symlinks that lead inside, outside,
// upward, in a loop and to nothing.
func tree(t testing.TB) (base string) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) { os.MkdirAll(filepath.Join(base, p), 0o755) }
	ln := func(target, p string) { os.Symlink(target, filepath.Join(base, p)) }
	mk("root/a/b")
	mk("out/x")
	os.WriteFile(filepath.Join(base, "root/a/f"), []byte("f"), 0o644)
	os.WriteFile(filepath.Join(base, "out/secret"), []byte("s"), 0o644)
	ln("../../out", "root/a/up")               // relative, leads out
	ln(filepath.Join(base, "out"), "root/abs") // absolute, leads out
	ln("b", "root/a/inb")                      // stays inside
	ln("loop2", "root/loop1")
	ln("loop1", "root/loop2")
	ln("nowhere", "root/dangling")
	ln("f", "root/a/flink")
	return base
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	base := tree(t)
	r := filepath.Join(base, "root")
	cases := map[string]string{
		r + "/a/b/../f":        r + "/a/f",
		r + "/a/inb/../f":      r + "/a/f", // .. after a link goes up from its target
		r + "/a/up/secret":     base + "/out/secret",
		r + "/a/up/../root":    base + "/root",
		r + "/abs/x":           base + "/out/x",
		r + "/abs/../root/a":   base + "/root/a",
		r + "/a/./b//":         r + "/a/b",
		r + "/new/file":        r + "/new/file",
		r + "/dangling":        r + "/nowhere",
		r + "/a/flink":         r + "/a/f",
		r + "/a/../../out/x":   base + "/out/x",
		r + "/../../../../../": "/",
	}
	for in, want := range cases {
		got, err := Canonical(in)
		if err != nil || got != want {
			t.Errorf("Canonical(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"rel/path", "", r + "/loop1/x", r + "/a/f/x", "/a\x00b", r + "/0/../abs"} {
		if got, err := Canonical(bad); err == nil {
			t.Errorf("Canonical(%q) = %s, want an error", bad, got)
		}
	}
}

// FuzzCanonical: for any path built from the tree's names, Canonical
// agrees with the kernel (filepath.EvalSymlinks, which asks it) wherever
// the path exists, holds no symlink in its existing part, and a path it
// places under the root really is under it.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"a/b/../f", "a/up/secret", "abs/../a", "a/inb/../../a/f", "loop1", "../root/a", "a//./b/", "dangling/x", "a/flink", "a/up/../../root/abs/x"} {
		f.Add(s)
	}
	base := tree(f)
	root := filepath.Join(base, "root")
	f.Fuzz(func(t *testing.T, rel string) {
		if strings.IndexByte(rel, 0) >= 0 || len(rel) > 200 {
			return
		}
		p := root + "/" + rel
		got, err := Canonical(p)
		real, rerr := filepath.EvalSymlinks(p)
		if rerr == nil {
			if err != nil {
				t.Fatalf("Canonical(%q): %v; the kernel resolves it to %s", p, err, real)
			}
			if abs, _ := filepath.Abs(real); abs != got {
				t.Fatalf("Canonical(%q) = %s; the kernel resolves it to %s", p, got, abs)
			}
		}
		if err != nil {
			return
		}
		if !filepath.IsAbs(got) || filepath.Clean(got) != got {
			t.Fatalf("Canonical(%q) = %q: not absolute and clean", p, got)
		}
		// No symlink among the components that exist.
		for q := got; q != "/"; q = filepath.Dir(q) {
			fi, err := os.Lstat(q)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				t.Fatalf("Canonical(%q) = %s keeps symlink %s", p, got, q)
			}
		}
		// What it says is under the root is under the root for the kernel too.
		if within(got, root) && rerr == nil {
			if abs, _ := filepath.Abs(real); !within(abs, root) {
				t.Fatalf("Canonical(%q) = %s under the root, but it is %s", p, got, abs)
			}
		}
	})
}

func TestResolveRefusesEscapes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := mustConfig(t, f.config(""))
	os.Symlink(f.outside, filepath.Join(f.rw, "out"))
	os.Symlink(f.secret, filepath.Join(f.rw, "secret-link"))
	for _, p := range []string{
		f.secret,
		f.rw + "/../outside/secret.txt",
		f.rw + "/out/secret.txt",
		f.rw + "/secret-link",
		f.ro + "/../app/../outside/secret.txt",
		"relative/notes.txt",
	} {
		if pl, err := c.Resolve(p, AccessRead); err == nil {
			t.Errorf("Resolve(%s) = %+v, want a refusal", p, pl)
		}
	}
	if _, err := c.Resolve(f.ro+"/app.log", AccessReadWrite); err == nil || !strings.Contains(err.Error(), string(ClassReadOnlyPath)) {
		t.Errorf("an r path resolved for writing: %v", err)
	}
	// An entry op on a symlink leading out is refused; one leading in is the link.
	if _, err := c.ResolveEntry(f.rw+"/secret-link", AccessReadWrite); err == nil {
		t.Error("ResolveEntry accepted a symlink pointing outside")
	}
	os.Symlink("notes.txt", filepath.Join(f.rw, "inner-link"))
	pl, err := c.ResolveEntry(f.rw+"/inner-link", AccessReadWrite)
	if err != nil || pl.Abs != f.rw+"/inner-link" {
		t.Errorf("ResolveEntry(inner-link) = %+v, %v", pl, err)
	}
}
