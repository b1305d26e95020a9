//go:build linux

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A filesystem mounted inside an rw path (a /proc bound there read whole
// at the first point for minutes: 31-ipatk15m) is not looked into, and
// the first writing call's answer and the person hear it once. Root only.
func TestCallNamesAMountInsideAnRWPathOnce(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	bin := helper(t)
	f := newFixture(t)
	mnt := filepath.Join(f.rw, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	warn := &syncBuffer{}
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin, Warn: warn})
	want := mnt + ": " + checkpoint.OtherMount
	first := mustAllow(t, cs, "exec", map[string]any{"command": "echo x > a.txt", "cwd": f.rw})
	second := mustAllow(t, cs, "exec", map[string]any{"command": "echo y > a.txt", "cwd": f.rw})
	if !strings.Contains(first, want) || strings.Count(warn.String(), want) != 1 {
		t.Errorf("the mount point is not told once:\n%s\n--\n%s", first, warn.String())
	}
	if strings.Contains(second, want) {
		t.Errorf("the mount point is told again:\n%s", second)
	}
}
