//go:build unix

package mcpserver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
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
		return fmt.Errorf("%s %s belongs to uid %d, not to you or root: another user could change what this server allows (chown it, or copy the config into a folder of yours)", what, p, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 && !(fi.IsDir() && fi.Mode()&os.ModeSticky != 0) {
		return fmt.Errorf("%s %s is writable by group or others (mode %04o): another user could change what this server allows; chmod go-w %s", what, p, fi.Mode().Perm(), p)
	}
	return nil
}
