//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ipatk17m row 3: root's server gave the person's Makefile to sentinel-ci
// (chown owner=sentinel-ci), who could then plant a recipe root's next make
// runs; the answer said only "is now owned by", the checkpoint's diff
// compares no owners, so the person was told nothing. A chown that gives an
// entry to another user (or a group-writable one to another group) is
// told to the person and flagged in the answer; one to the server's own
// user is not.
func TestAChownToAnotherUserIsToldToThePerson(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown to another owner needs root")
	}
	srv, rw := gateServer(t)
	var told []string
	tellPerson = func(l string) { told = append(told, l) }
	t.Cleanup(func() { tellPerson = func(string) {} })
	mk := filepath.Join(rw, "Makefile")
	if err := os.WriteFile(mk, []byte("all:\n\techo hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mk, 0o664); err != nil { // group-writable, whatever the umask
		t.Fatal(err)
	}
	out, err := srv.chown(chownArgs{Path: mk, Owner: "4242"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "DANGEROUS") || len(told) != 1 || !strings.Contains(told[0], "user 4242") {
		t.Errorf("given to uid 4242: answer %q, told %q", out, told)
	}
	told = nil
	if out, err = srv.chown(chownArgs{Path: mk, Group: "4343"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "DANGEROUS") || len(told) != 1 || !strings.Contains(told[0], "group 4343") {
		t.Errorf("a group-writable file given to gid 4343: answer %q, told %q", out, told)
	}
	told = nil
	if out, err = srv.chown(chownArgs{Path: mk, Owner: "0"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "DANGEROUS") || len(told) != 0 {
		t.Errorf("back to root: answer %q, told %q", out, told)
	}
}
