//go:build unix

package mcpserver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// readOwnConfig is the config file at path, refused when someone other
// than root or this server's user owns it or may write it or replace it
// (its directory writable by group or others, unless sticky like /tmp).
// The config says what every client may reach, and a changed file applies
// to the next call: another local user who could write a mode-666 config
// made root's running server write /etc/cron.d through the edit tool
// (31-ipatk16m). The file is checked as opened, so a swap after the check
// is not read.
func readOwnConfig(path string) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := ownedHere(real, fi, "the config file"); err != nil {
		return nil, err
	}
	di, err := os.Stat(filepath.Dir(real))
	if err != nil {
		return nil, err
	}
	if err := ownedHere(filepath.Dir(real), di, "the config's directory"); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

// ownedHere refuses fi (at p) when it belongs to a user other than root or
// this process's, or group or others may write it (a sticky directory only
// lets others add names, not replace this one).
func ownedHere(p string, fi os.FileInfo, what string) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("cannot tell who owns %s", p)
	}
	if uid := int(st.Uid); uid != 0 && uid != os.Geteuid() {
		return fmt.Errorf("%s %s belongs to uid %d, not to you or root: another user could change it (chown it, or use a file in a folder of yours)", what, p, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 && !(fi.IsDir() && fi.Mode()&os.ModeSticky != 0) {
		return fmt.Errorf("%s %s is writable by group or others (mode %04o): another user could change it; chmod go-w %s", what, p, fi.Mode().Perm(), p)
	}
	return nil
}

// ownJournalFile refuses an audit journal (or its lock) at path that is not
// a regular file of root's or this user's that only its owner may write,
// in a directory no one else may replace it in. An audit path in a shared
// folder was another user's file: root's server appended to sentinel-ci's
// mode-666 file, and sentinel-ci emptied it (31-ipatk16m). The file is
// made (0600) when missing and checked as opened, never through a link.
func ownJournalFile(path string) error {
	f, err := openOwn(path, os.O_RDONLY, "the audit file")
	if err != nil {
		return err
	}
	return f.Close()
}

// openLogFile opens the [log] file to append to it, held to what
// ownJournalFile holds the audit file to: a [log] file in /tmp was
// another user's symlink to a file of root's, and root's server appended
// its log lines (with text the client chose) to it (31-ipatk16m).
func openLogFile(path string) (*os.File, error) {
	return openOwn(path, os.O_WRONLY|os.O_APPEND, "the log file")
}

// openOwn opens path with flag, made (0600) when missing, never through a
// symlink nor waiting on a fifo, and refused unless it is a regular file
// ownedHere in a directory ownedHere.
func openOwn(path string, flag int, what string) (*os.File, error) {
	f, err := nofollow.OpenFile(path, flag|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s %s is not a regular file (%s)", what, path, fi.Mode().Type())
	}
	if err == nil {
		err = ownedHere(path, fi, what)
	}
	var di os.FileInfo
	if err == nil {
		di, err = os.Stat(filepath.Dir(path))
	}
	if err == nil {
		err = ownedHere(filepath.Dir(path), di, what+"'s directory")
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
