//go:build unix

package mcpserver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// readOwnConfig is the config file at path, refused when someone other
// than root or this server's user owns it or may write it or replace it
// (its directory writable by group or others, unless sticky like /tmp).
// The config says what every client may reach, and a changed file applies
// to the next call: another local user who could write a mode-666 config
// made root's running server write /etc/cron.d through the edit tool
// (31-ipatk16m). The file is checked as opened, so a swap after the check
// is not read. Its directories are walked by openDirWalked; the config
// itself may be a symlink of root's or yours (a dotfiles link), whose
// target is checked the same way.
func readOwnConfig(path string) ([]byte, error) {
	for range 40 { // as the kernel's limit on links
		f, err := openOwnedIn(path, os.O_RDONLY|syscall.O_NONBLOCK, "the config")
		if err != nil {
			target, lerr := trustedLastLink(path, err)
			if lerr != nil {
				return nil, lerr
			}
			path = target
			continue
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("the config file %s is not a regular file (%s)", path, fi.Mode().Type())
		}
		if err := ownedHere(path, fi, "the config file"); err != nil {
			return nil, err
		}
		return io.ReadAll(f)
	}
	return nil, fmt.Errorf("the config %s: too many levels of symbolic links", path)
}

// trustedLastLink is the target of path when opening it failed (openErr)
// because it is a symlink root or you own; otherwise an error.
func trustedLastLink(path string, openErr error) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", openErr
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || !trustedUID(int(st.Uid)) {
		return "", fmt.Errorf("the config %s is a symlink of another user's: it could point anywhere", path)
	}
	target, err := os.Readlink(path)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return target, nil
}

// trustedUID reports whether uid is root's or this process's, or, when
// root runs the server through sudo, the invoking user's (SUDO_UID):
// `sudo sentinel mcp --config ~/mcp.toml` was refused because the file is
// the person's own (review #31, MED 4). Group and others still may not
// write it (ownedHere).
func trustedUID(uid int) bool {
	euid := os.Geteuid()
	if uid == 0 || uid == euid {
		return true
	}
	if euid != 0 {
		return false
	}
	sudo, err := strconv.Atoi(os.Getenv("SUDO_UID"))
	return err == nil && sudo > 0 && uid == sudo
}

// ownedHere refuses fi (at p) when it belongs to a user other than root or
// this process's, or others may write it, or its group may and the group
// is not its owner's private one (privateGroup); a sticky directory only
// lets others add names, not replace this one.
func ownedHere(p string, fi os.FileInfo, what string) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("cannot tell who owns %s", p)
	}
	if uid := int(st.Uid); !trustedUID(uid) {
		return fmt.Errorf("%s %s belongs to uid %d, not to you (or the sudo user) or root: another user could change it (chown it, or use a file in a folder of yours)", what, p, uid)
	}
	if fi.IsDir() && fi.Mode()&os.ModeSticky != 0 {
		return nil
	}
	perm := fi.Mode().Perm()
	if perm&0o002 != 0 {
		return fmt.Errorf("%s %s is writable by group or others (mode %04o): another user could change it; chmod go-w %s", what, p, perm, p)
	}
	if perm&0o020 != 0 {
		// umask 002 with user private groups (Debian, Fedora, WSL): the
		// group is the owner's alone, so no one else may write it.
		if ok, why := privateGroup(int(st.Uid), int(st.Gid)); !ok {
			return fmt.Errorf("%s %s is writable by group or others (mode %04o; %s): another user could change it; chmod g-w %s", what, p, perm, why, p)
		}
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
// symlink (its directories: openDirWalked) nor waiting on a fifo, and
// refused unless it is a regular file ownedHere in a directory ownedHere.
func openOwn(path string, flag int, what string) (*os.File, error) {
	f, err := openOwnedIn(path, flag|os.O_CREATE|syscall.O_NONBLOCK, what)
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
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// handedTo names whom a chown to uid and gid gives fi (the entry as it was)
// to, who could not change it before and can now: a user other than its
// owner, root and this process's (or sudo's) user; or a new group, when
// the entry is group-writable. "" when no one.
func handedTo(fi os.FileInfo, uid, gid int) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	var to []string
	if uid >= 0 && uid != int(st.Uid) && !trustedUID(uid) {
		to = append(to, fmt.Sprintf("user %d", uid))
	}
	if gid >= 0 && gid != int(st.Gid) && fi.Mode().Perm()&0o020 != 0 {
		to = append(to, fmt.Sprintf("group %d", gid))
	}
	return strings.Join(to, " and ")
}
