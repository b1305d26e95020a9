package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A readable directory that holds a mount of its own on the host (a tmpfs
// here; a disk or a network share on a person's machine) is read-only
// inside down to that mount: the bind brings the host's submounts along,
// and each must be made read-only too, not only the top one. Landlock
// refuses the write as well; this checks the mount itself.
func TestReadableSubmountsAreReadOnlyInside(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting on the host needs root")
	}
	dir, err := os.MkdirTemp("/var/tmp", "sentinel-submount-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("tmpfs", sub, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(sub, unix.MNT_DETACH) })
	ws := t.TempDir()
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			sbx, err := Prepare(Profile{Workspace: ws, Net: NetNone, Readable: []string{dir}}, Options{Mode: mode, Helper: helperBin})
			if err != nil {
				t.Fatal(err)
			}
			defer sbx.Close()
			cmd, err := sbx.Command(context.Background(), ws, "grep", " "+sub+" ", "/proc/self/mountinfo")
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s is not mounted inside: %v\n%s", sub, err, out)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				f := strings.Fields(line)
				if len(f) < 6 || !strings.HasPrefix(f[5], "ro") {
					t.Errorf("the host's submount is writable inside: %s", line)
				}
			}
		})
	}
}
