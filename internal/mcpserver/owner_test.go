//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
		sharedGroup(t, file)
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

// An audit journal someone else may write is not the person's record:
// root's server appended to sentinel-ci's mode-666 file at the configured
// audit path, and sentinel-ci emptied it (31-ipatk16m). The server refuses
// to start on such a file (or its lock, or a fifo there, or a folder others
// may write).
func TestAnAuditFileAnotherUserMayWriteIsRefused(t *testing.T) {
	f := newFixture(t)
	start := func(t *testing.T, audit string) error {
		t.Helper()
		cfg := mustConfig(t, f.config(`audit = "`+audit+`"`))
		srv, err := New(cfg, Options{Transport: "memory", files: testLayer(t)})
		if err == nil {
			srv.Close()
		}
		return err
	}
	cases := map[string]func(t *testing.T) (audit, want string){
		"file mode 666": func(t *testing.T) (string, string) {
			p := filepath.Join(t.TempDir(), "audit.jsonl")
			write(t, p, "")
			os.Chmod(p, 0o666)
			return p, "writable by group or others"
		},
		"lock mode 666": func(t *testing.T) (string, string) {
			p := filepath.Join(t.TempDir(), "audit.jsonl")
			write(t, p+".lock", "")
			os.Chmod(p+".lock", 0o666)
			return p, "writable by group or others"
		},
		"directory mode 777": func(t *testing.T) (string, string) {
			dir := t.TempDir()
			os.Chmod(dir, 0o777)
			return filepath.Join(dir, "audit.jsonl"), "writable by group or others"
		},
		"a fifo": func(t *testing.T) (string, string) {
			p := filepath.Join(t.TempDir(), "audit.jsonl")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
			return p, "not a regular file"
		},
		"another user's file": func(t *testing.T) (string, string) {
			if os.Geteuid() != 0 {
				t.Skip("needs root to give the file away")
			}
			p := filepath.Join(t.TempDir(), "audit.jsonl")
			write(t, p, "")
			os.Chmod(p, 0o600)
			if err := os.Chown(p, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			return p, "belongs to uid 65534"
		},
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			audit, want := mk(t)
			if err := start(t, audit); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("New with audit %s: %v, want it refused (%q)", audit, err, want)
			}
		})
	}
	t.Run("the person's own file", func(t *testing.T) {
		dir := t.TempDir()
		os.Chmod(dir, 0o777|os.ModeSticky)
		if err := start(t, filepath.Join(dir, "audit.jsonl")); err != nil {
			t.Errorf("a new audit file in a sticky folder: %v", err)
		}
	})
}

// The [log] file is opened as the audit file is: never through a symlink,
// and only a regular file of root's or this user's that no one else may
// write. A [log] file in /tmp was sentinel-ci's symlink to a file of
// root's, and root's server appended its log lines to it (31-ipatk16m).
func TestALogFileIsNotOpenedThroughALinkOrAnotherUsersFile(t *testing.T) {
	f := newFixture(t)
	start := func(t *testing.T, log string) error {
		t.Helper()
		cfg := mustConfig(t, f.config("[log]\nlevel = \"info\"\nfile = \""+log+"\"\n"))
		srv, err := New(cfg, Options{Transport: "memory", files: testLayer(t)})
		if err == nil {
			srv.Close()
		}
		return err
	}
	t.Run("a symlink", func(t *testing.T) {
		victim := filepath.Join(t.TempDir(), "victim")
		write(t, victim, "root's file\n")
		log := filepath.Join(t.TempDir(), "mcp.log")
		if err := os.Symlink(victim, log); err != nil {
			t.Fatal(err)
		}
		if err := start(t, log); err == nil {
			t.Errorf("a [log] file that is a symlink was opened")
		}
		if b, _ := os.ReadFile(victim); string(b) != "root's file\n" {
			t.Errorf("the file the link names was written: %q", b)
		}
	})
	t.Run("mode 666", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "mcp.log")
		write(t, log, "")
		os.Chmod(log, 0o666)
		if err := start(t, log); err == nil || !strings.Contains(err.Error(), "writable by group or others") {
			t.Errorf("a [log] file others may write: %v", err)
		}
	})
	t.Run("the person's own", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "mcp.log")
		if err := start(t, log); err != nil {
			t.Errorf("a new [log] file: %v", err)
		}
	})
}
