package sudoedit

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The socket is made only in a directory no one but root writes: in the
// service user's, it could put a link where the socket is chowned.
func TestListenWantsARootOnlyDirectory(t *testing.T) {
	e := newHelperEnv(t)
	theirs := filepath.Join(e.base, "theirs")
	os.Mkdir(theirs, 0o755)
	os.Chown(theirs, e.uid, e.gid)
	if ln, err := Listen(filepath.Join(theirs, "helper.sock"), e.uid); err == nil || !strings.Contains(err.Error(), "root-only directory") {
		if ln != nil {
			ln.Close()
		}
		t.Fatalf("a socket in the service user's dir: %v", err)
	}
	sock := filepath.Join(e.base, "run", "helper.sock")
	ln, err := Listen(sock, e.uid)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	fi, err := os.Lstat(sock)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != e.uid || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the socket is %d's, mode %v", st.Uid, fi.Mode())
	}
}
