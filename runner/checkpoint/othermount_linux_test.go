//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A filesystem mounted inside the place (a /proc, a share) is one entry,
// not looked into, as find -xdev stops there: the first record of an rw
// path with /proc bound inside read all of /proc for minutes while every
// later writing call waited (31-ipatk15m). Stamp (the end-of-run walk)
// stops there too. Root only (it mounts a tmpfs).
func TestACheckpointDoesNotWalkIntoAnotherMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, "a.txt", "alpha\n", 0o644)
	mnt := filepath.Join(root, "sub", "mnt")
	must(t, os.MkdirAll(mnt, 0o755))
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	write(t, root, "sub/mnt/inside.txt", "on the other filesystem\n", 0o644)

	s := newStore(t, root)
	for name, m := range map[string]*Manifest{"Take": take(t, s, root, Options{}), "Stamp": stamp(t, root)} {
		var got []string
		for _, e := range m.Entries {
			if e.Path == "sub/mnt" || filepath.Dir(e.Path) == "sub/mnt" {
				got = append(got, e.Path+" "+string(e.Kind)+" "+e.Skip)
			}
		}
		want := "sub/mnt " + string(KindOther) + " " + OtherMount
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: entries at and under the mount point = %q, want only %q", name, got, want)
		}
		if _, ok := m.Get("a.txt"); !ok {
			t.Errorf("%s: a.txt, on the place's own filesystem, is not listed", name)
		}
	}
	if n := notCoveredNames(take(t, s, root, Options{})); len(n) != 1 || n[0] != "sub/mnt" {
		t.Errorf("not covered = %q, want the mount point once", n)
	}
}

func stamp(t *testing.T, root string) *Manifest {
	t.Helper()
	m, err := Stamp(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// notCoveredNames are the paths of m.NotCovered().
func notCoveredNames(m *Manifest) []string {
	var out []string
	for _, e := range m.NotCovered() {
		out = append(out, e.Path)
	}
	return out
}
