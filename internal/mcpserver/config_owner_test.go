//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config someone else may write is not one the person chose: another
// local user who could write root's mode-666 config added /etc as an rw
// path, the running server reloaded it, and the next edit wrote
// /etc/cron.d (31-ipatk16m). LoadConfig refuses a config file or directory
// writable by group or others (a sticky directory is fine) or owned by
// another user, at start and on every reload (the previous config stays).
func TestAConfigAnotherUserMayWriteIsRefused(t *testing.T) {
	f := newFixture(t)
	good := func(t *testing.T) string {
		dir := t.TempDir()
		file := filepath.Join(dir, "mcp.toml")
		write(t, file, f.config(""))
		return file
	}
	refused := func(t *testing.T, file, want string) {
		t.Helper()
		if _, err := LoadConfig(file); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadConfig: %v, want it refused (%q)", err, want)
		}
	}
	t.Run("file mode 666", func(t *testing.T) {
		file := good(t)
		os.Chmod(file, 0o666)
		refused(t, file, "writable by group or others")
	})
	t.Run("file mode 620", func(t *testing.T) {
		file := good(t)
		os.Chmod(file, 0o620)
		refused(t, file, "writable by group or others")
	})
	t.Run("directory mode 777", func(t *testing.T) {
		file := good(t)
		os.Chmod(filepath.Dir(file), 0o777)
		refused(t, file, "writable by group or others")
	})
	t.Run("through a symlink", func(t *testing.T) {
		file := good(t)
		os.Chmod(file, 0o666)
		link := filepath.Join(t.TempDir(), "link.toml")
		if err := os.Symlink(file, link); err != nil {
			t.Fatal(err)
		}
		refused(t, link, "writable by group or others")
	})
	t.Run("sticky directory", func(t *testing.T) {
		file := good(t)
		os.Chmod(filepath.Dir(file), 0o777|os.ModeSticky)
		if _, err := LoadConfig(file); err != nil {
			t.Errorf("a config in a sticky directory: %v", err)
		}
	})
	t.Run("another user's file", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give the file away")
		}
		file := good(t)
		if err := os.Chown(file, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		refused(t, file, "belongs to uid 65534")
	})
	t.Run("reload", func(t *testing.T) {
		file := good(t)
		cfg, err := LoadConfig(file)
		if err != nil {
			t.Fatal(err)
		}
		cs, srv := session(t, cfg, Options{Warn: &syncBuffer{}})
		os.Chmod(file, 0o666)
		write(t, file, f.config("")+"\n[[paths]]\npath = \""+f.outside+"\"\naccess = \"r\"\n")
		if err := srv.Reload(); err == nil {
			t.Errorf("a reload of a config others may write was applied")
		}
		mustRefuse(t, cs, "read", map[string]any{"path": f.secret}, ClassPathNotAllowed)
	})
}
