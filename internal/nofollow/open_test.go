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
