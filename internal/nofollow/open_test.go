package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenRefusesALinkAtTheLastElement(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "secret")
	if err := os.WriteFile(target, []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("secret", link); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for name, open := range map[string]func(int) (*os.File, error){
		"OpenFile": func(flag int) (*os.File, error) { return OpenFile(link, flag, 0o600) },
		"OpenIn":   func(flag int) (*os.File, error) { return OpenIn(root, "link", flag, 0o600) },
	} {
		for _, flag := range []int{os.O_RDONLY, os.O_WRONLY | os.O_CREATE | os.O_TRUNC} {
			f, err := open(flag)
			if err == nil {
				f.Close()
				t.Fatalf("%s(flag %#x) opened the link's target", name, flag)
			}
			if !errors.Is(err, syscall.ELOOP) {
				t.Fatalf("%s(flag %#x): %v, want ELOOP", name, flag, err)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "s" {
		t.Fatalf("the target was written through the link: %q", b)
	}
	f, err := OpenFile(target, os.O_RDONLY, 0)
	if err != nil {
		t.Fatalf("a plain file: %v", err)
	}
	f.Close()
	f, err = OpenIn(root, "new", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatalf("a new file: %v", err)
	}
	f.Close()
}

// A link deeper in the root is refused too, and a directory opens only
// as one.
func TestOpenInRefusesALinkInASubdirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret", filepath.Join(dir, "sub", "link")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if f, err := OpenIn(root, "sub/link", os.O_RDONLY, 0); !errors.Is(err, syscall.ELOOP) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("OpenIn(sub/link): %v, want ELOOP", err)
	}
	d, err := OpenDirIn(root, "sub")
	if err != nil {
		t.Fatalf("OpenDirIn(sub): %v", err)
	}
	d.Close()
	if f, err := OpenDirIn(root, "secret"); !errors.Is(err, syscall.ENOTDIR) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("OpenDirIn of a file: %v, want ENOTDIR", err)
	}
}
