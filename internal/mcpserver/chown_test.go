//go:build unix

package mcpserver

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

func ownerOf(t *testing.T, p string) (uint32, uint32) {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

func TestChown(t *testing.T) {
	t.Parallel()
	eachLayer(t, testChown)
}

func testChown(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to another owner needs root")
	}
	f := newFixture(t)
	cs, _ := stdioSession(t, mustConfig(t, f.config("")), Options{})
	notes := filepath.Join(f.rw, "notes.txt")

	mustAllow(t, cs, "chown", map[string]any{"path": notes, "owner": "4242", "group": "4343"})
	if u, g := ownerOf(t, notes); u != 4242 || g != 4343 {
		t.Fatalf("numeric chown: %d:%d", u, g)
	}
	if d, err := user.Lookup("daemon"); err != nil {
		t.Log("no user daemon here: names are not tried (the refusals below are)")
	} else {
		mustAllow(t, cs, "chown", map[string]any{"path": notes, "owner": "daemon"})
		if u, g := ownerOf(t, notes); strconv.Itoa(int(u)) != d.Uid || g != 4343 {
			t.Fatalf("named owner, group unchanged: %d:%d", u, g)
		}
		sub := filepath.Join(f.rw, "sub")
		os.Mkdir(sub, 0o755)
		mustAllow(t, cs, "chown", map[string]any{"path": sub, "group": "daemon"})
		if _, g := ownerOf(t, sub); strconv.Itoa(int(g)) != d.Gid {
			t.Fatalf("named group on a directory: %d", g)
		}
	}

	// Never outside: not an r path, not outside, not through a symlink
	// (the link's target is outside), not a symlink itself, not a hard
	// link whose other name lies outside.
	os.Symlink(f.secret, filepath.Join(f.rw, "secret-link"))
	os.Symlink(f.outside, filepath.Join(f.rw, "out"))
	hard := filepath.Join(f.rw, "hard")
	if err := os.Link(f.secret, hard); err != nil {
		t.Fatal(err)
	}
	inLink := filepath.Join(f.rw, "notes-link")
	os.Symlink(notes, inLink)
	for _, c := range []struct {
		path  string
		class Class
	}{
		{f.ro + "/app.log", ClassReadOnlyPath},
		{f.secret, ClassPathNotAllowed},
		{f.rw + "/../outside/secret.txt", ClassPathNotAllowed},
		{f.rw + "/secret-link", ClassPathNotAllowed},
		{f.rw + "/out/secret.txt", ClassPathNotAllowed},
		{hard, ClassPathNotAllowed},
		{f.rw, ClassPathNotAllowed}, // a configured root itself
		{inLink, ClassBadInput},
	} {
		mustRefuse(t, cs, "chown", map[string]any{"path": c.path, "owner": "4242"}, c.class)
	}
	for _, p := range []string{f.secret, f.ro + "/app.log", inLink, f.rw} {
		if u, _ := ownerOf(t, p); u != 0 {
			t.Fatalf("%s was chowned to %d", p, u)
		}
	}
	for _, bad := range []map[string]any{
		{"path": notes},
		{"path": notes, "owner": "-1"},
		{"path": notes, "owner": "99999999999"},
		{"path": notes, "group": "1x"},
	} {
		mustRefuse(t, cs, "chown", bad, ClassBadInput)
	}
	mustRefuse(t, cs, "chown", map[string]any{"path": notes, "owner": "no-such-user-here"}, ClassNotFound)
}
