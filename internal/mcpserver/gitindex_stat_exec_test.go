//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// forgeStat rewrites the stat record of one index entry (a v2 index) to
// match its file as it is now, its mtime set back first so that git does
// not find it racily clean: what a command can do to hide a change.
const forgeStat = `import os, sys, struct, hashlib
path = sys.argv[1]
st0 = os.stat(path)
os.utime(path, ns=(st0.st_atime_ns, st0.st_mtime_ns - 10*10**9))
st = os.stat(path)
b = bytearray(open('.git/index', 'rb').read())
n = struct.unpack('>I', b[8:12])[0]
off = 12
for i in range(n):
    nul = b.index(b'\0', off + 62)
    name = bytes(b[off+62:nul]).decode()
    if name == path:
        mode = struct.unpack('>I', b[off+24:off+28])[0]
        struct.pack_into('>IIIIIIIIII', b, off, int(st.st_ctime) & 0xffffffff, st.st_ctime_ns % 10**9, int(st.st_mtime) & 0xffffffff, st.st_mtime_ns % 10**9, st.st_dev & 0xffffffff, st.st_ino & 0xffffffff, mode, st.st_uid, st.st_gid, st.st_size & 0xffffffff)
    off = off + ((62 + len(name) + 8) // 8) * 8
body = bytes(b[:-20])
open('.git/index', 'wb').write(body + hashlib.sha1(body).digest())
`

// Through a real exec call: a command that changes a tracked file and
// forges its stat record in the index (git status then shows nothing: the
// same script does so on a plain repository first) hides nothing from the
// person's next git status: the record is cleared and named. A file
// whose record a command only refreshed (git status) is left alone.
func TestExecClearsAStatRecordForgedToHideAChange(t *testing.T) {
	t.Parallel()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is needed to forge an index entry")
	}
	commit := func(dir string) {
		gitInit(t, dir)
		if err := os.WriteFile(filepath.Join(dir, "forge.py"), []byte(forgeStat), 0o644); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "a"), "hello\n")
		write(t, filepath.Join(dir, "b"), "fine\n")
		for _, args := range [][]string{{"add", "."}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "one"}} {
			if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
	}
	status := func(dir string) string {
		out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
		if err != nil {
			t.Fatalf("git status: %v\n%s", err, out)
		}
		return string(out)
	}
	line := "echo EVIL >> a && " + py + " forge.py a && touch b && git status --porcelain && echo done"

	plain := t.TempDir()
	commit(plain)
	c := exec.Command("bash", "-c", line)
	c.Dir = plain
	if out, err := c.CombinedOutput(); err != nil || strings.Contains(status(plain), " M a") {
		t.Fatalf("the forge does not hide the change from git on a plain repository (%v): %s\n%s", err, out, status(plain))
	}

	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	commit(app)
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": line})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for _, w := range []string{"a: the command wrote a stat record for it", "the record was cleared"} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "b: the command wrote a stat record") {
		t.Errorf("the answer names b, whose record git only refreshed:\n%s", got)
	}
	if s := status(app); !strings.Contains(s, " M a") {
		t.Errorf("the person's git status does not show a changed:\n%s", s)
	}
}
