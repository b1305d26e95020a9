//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"testing"
)

// A stamp records the place with nothing read or stored, and Diff of two
// stamps names what changed between them.
func TestStampNamesChangesWithoutStoring(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{"a.txt": "a\n", "b.txt": "b\n", "sub/c.txt": "c\n"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(root, "sub"), 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	before, err := Stamp(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range before.Entries {
		if e.Hash != "" || e.Skip != "" {
			t.Errorf("%s: read or skipped in a stamp (hash %q, skip %q)", e.Path, e.Hash, e.Skip)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("changed, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "b.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "d.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	after, err := Stamp(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range Diff(before, after) {
		got = append(got, c.Line())
	}
	want := []string{"M a.txt", "D b.txt", "mode 0755→0777 sub", "A sub/d.txt"}
	if len(got) != len(want) {
		t.Fatalf("diff %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("diff %q, want %q", got, want)
			break
		}
	}
}
