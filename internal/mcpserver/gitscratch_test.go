//go:build unix

package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// objectRepo is an rw path holding a repository with packed and loose
// objects, and a session whose exec runs in the real sandbox.
func objectRepo(t *testing.T) (app string, run func(line string) string) {
	t.Helper()
	bin := helper(t)
	f := newFixture(t)
	app = f.rw
	gitIn(t, app, "init", "-q")
	write(t, filepath.Join(app, "Makefile"), "all:\n\techo fine\n")
	gitIn(t, app, "add", ".")
	gitIn(t, app, "commit", "-qm", "one")
	gitIn(t, app, "repack", "-q", "-a", "-d")
	write(t, filepath.Join(app, "b.txt"), "second\n")
	gitIn(t, app, "add", "b.txt")
	gitIn(t, app, "commit", "-qm", "two")
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	// The policy refuses a command that names .git/objects; the sandbox is
	// what is tried here, so the line runs from a script.
	return app, func(line string) string {
		write(t, filepath.Join(app, "s.sh"), line+"\n")
		return mustAllow(t, cs, "exec", map[string]any{"command": "bash s.sh"})
	}
}

// storeFiles is every file of the store: its mode and a hash of its bytes.
func storeFiles(t *testing.T, objects string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(objects, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		files[p] = fi.Mode().String() + " " + hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func fsck(t *testing.T, app string) {
	t.Helper()
	if out, err := exec.Command("git", "-C", app, "fsck", "--full", "--strict").CombinedOutput(); err != nil {
		t.Errorf("git fsck in the person's repository: %v\n%s", err, out)
	}
}

// No command run through exec can lose or change an object of an rw
// path's repository (issue 31 F3: `rm -rf .git/objects/*` left `fatal:
// bad object HEAD`): the store is read-only to commands.
func TestExecCannotLoseOrChangeAnObject(t *testing.T) {
	t.Parallel()
	for name, line := range map[string]string{
		"rm":       `rm -rf .git/objects/*`,
		"gc prune": `git reset -q --hard HEAD~1 && git reflog expire --expire=now --all && git gc -q --prune=now; git reset -q --hard ORIG_HEAD`,
		"find":     `find .git/objects -delete`,
		"pack":     `for p in .git/objects/pack/*; do chmod 666 $p; truncate -s 0 $p; : > $p; done`,
		"rewrite": `old=$(git rev-parse HEAD:b.txt); new=$(printf 'all:\n\ttouch PWNED\n' | git hash-object -w --stdin); ` +
			`o=.git/objects; cp -f $GIT_OBJECT_DIRECTORY/${new:0:2}/${new:2} $o/${old:0:2}/${old:2}; cat $GIT_OBJECT_DIRECTORY/${new:0:2}/${new:2} > $o/${old:0:2}/${old:2}; ` +
			`rm -f $o/${old:0:2}/${old:2}; mv $o/${old:0:2} $o/moved`,
	} {
		t.Run(name, func(t *testing.T) {
			app, run := objectRepo(t)
			objects := filepath.Join(app, ".git", "objects")
			before := storeFiles(t, objects)
			got := run(line + "; echo done")
			if !strings.Contains(got, "done") {
				t.Fatalf("the command did not run: %s", got)
			}
			after := storeFiles(t, objects)
			for p, was := range before {
				if after[p] != was {
					t.Errorf("%s was %q, is %q after %q:\n%s", p, was, after[p], line, got)
				}
			}
			fsck(t, app)
			if strings.Contains(got, "DELETED") {
				t.Errorf("the fallback had to say objects were deleted:\n%s", got)
			}
			// The server goes on: nothing was lost.
			if got := run("echo again"); !strings.Contains(got, "again") {
				t.Errorf("the next command did not run: %s", got)
			}
		})
	}
}

// git add and git commit through exec work, and what they write is the
// person's once the command ends: proven and moved into the repository's
// own store (the host's git, with no scratch dir, reads it), a pack
// (git repack) too.
func TestExecCommitLandsInThePersonsStore(t *testing.T) {
	t.Parallel()
	app, run := objectRepo(t)
	write(t, filepath.Join(app, "c.txt"), "third\n")
	got := run(`git add c.txt && git -c user.name=A -c user.email=a@example.com commit -qm three && echo committed`)
	if !strings.Contains(got, "committed") {
		t.Fatalf("git commit through exec failed:\n%s", got)
	}
	fsck(t, app)
	if out, err := exec.Command("git", "-C", app, "cat-file", "-p", "HEAD:c.txt").CombinedOutput(); err != nil || string(out) != "third\n" {
		t.Errorf("the new commit's blob is not in the person's store: %v %s", err, out)
	}
	write(t, filepath.Join(app, "d.txt"), "fourth\n")
	got = run(`git add d.txt && git -c user.name=A -c user.email=a@example.com commit -qm four && git repack -q -d && echo packed`)
	if !strings.Contains(got, "packed") {
		t.Fatalf("git repack through exec failed:\n%s", got)
	}
	fsck(t, app)
	if out, err := exec.Command("git", "-C", app, "cat-file", "-p", "HEAD:d.txt").CombinedOutput(); err != nil || string(out) != "fourth\n" {
		t.Errorf("the packed commit's blob is not in the person's store: %v %s", err, out)
	}
	if strings.Contains(got, "not what its name says") || strings.Contains(got, "could not") {
		t.Errorf("a proven object was refused:\n%s", got)
	}
}

// An object the command plants in the scratch dir under a name its content
// does not hash to, and a pack that does not verify, never enter the
// person's store: each is quarantined and named.
func TestExecPlantedObjectNeverLands(t *testing.T) {
	t.Parallel()
	app, run := objectRepo(t)
	// old names a blob the person does not have: the command's object
	// would be what git reads for it.
	h := exec.Command("git", "hash-object", "--stdin")
	h.Stdin = strings.NewReader("what the person will write\n")
	old := strings.TrimSpace(string(must(h.Output())))
	got := run(`o=$GIT_OBJECT_DIRECTORY; new=$(printf 'all:\n\ttouch PWNED\n' | git hash-object -w --stdin); ` +
		`mkdir -p $o/` + old[:2] + ` && mv $o/${new:0:2}/${new:2} $o/` + old[:2] + `/` + old[2:] + `; ` +
		`fake=` + strings.Repeat("ab", 20) + `; mkdir -p $o/ab && printf 'not an object' > $o/ab/${fake:2}; ` +
		`echo x > x.txt && git hash-object -w x.txt && git repack -q -d && p=$(ls $o/pack/*.pack) && chmod u+w $p && printf 'XXXX' | dd of=$p bs=1 seek=40 conv=notrunc; echo done`)
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	if b, err := exec.Command("git", "-C", app, "cat-file", "-p", old).CombinedOutput(); err == nil {
		t.Errorf("the planted object %s entered the person's store: %q", old, b)
	}
	if _, err := os.Lstat(filepath.Join(app, ".git", "objects", "ab", strings.Repeat("ab", 19))); err == nil {
		t.Error("a file that is no object entered the person's store")
	}
	if packs, _ := filepath.Glob(filepath.Join(app, ".git", "objects", "pack", "*.pack")); len(packs) != 1 {
		t.Errorf("a pack that does not verify entered the person's store: %v", packs)
	}
	for _, w := range []string{old[:2] + "/" + old[2:], "its content hashes to", "do not match its index", "moved to "} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	fsck(t, app)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
