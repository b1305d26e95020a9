//go:build unix

package gitrest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// logs/, FETCH_HEAD, ORIG_HEAD and COMMIT_EDITMSG are the coder's to
// write (a commit, fetch or reset does), so a new reflog line that points
// at no object the coder made is not named; what they are is not: a link there (git
// follows it on its next append or write) or a fifo is named, as is a
// logs/ directory turned into a link. The rest is compared whole.
func TestTheRoutineEntriesAreComparedByKind(t *testing.T) {
	gd := t.TempDir()
	for rel, body := range map[string]string{
		"HEAD": "ref: refs/heads/main\n", "logs/HEAD": "a b c\n", "logs/refs/heads/main": "a b c\n",
		"FETCH_HEAD": "abc\t\tbranch 'main'\n", "ORIG_HEAD": "abc\n", "COMMIT_EDITMSG": "one\n",
	} {
		p := filepath.Join(gd, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := Dirs{GitDir: gd}
	before := Snap(d, MaxBytes)
	// Routine: new lines, a new reflog, a rewritten commit message.
	os.WriteFile(filepath.Join(gd, "logs/HEAD"), []byte("a b c\nb c d\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "logs/refs/heads/side"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "COMMIT_EDITMSG"), []byte("two\n"), 0o644)
	if lines, _ := Changes(d, before, Snap(d, MaxBytes), 50); len(lines) != 0 {
		t.Errorf("routine writes were named: %q", lines)
	}
	// Not routine: what they are.
	os.Remove(filepath.Join(gd, "logs/refs/heads/main"))
	os.Symlink(filepath.Join(os.Getenv("HOME"), ".bashrc"), filepath.Join(gd, "logs/refs/heads/main"))
	os.Remove(filepath.Join(gd, "FETCH_HEAD"))
	os.Symlink("/tmp/x", filepath.Join(gd, "FETCH_HEAD"))
	os.Remove(filepath.Join(gd, "ORIG_HEAD"))
	if err := syscall.Mkfifo(filepath.Join(gd, "ORIG_HEAD"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/tmp", filepath.Join(gd, "logs/refs/remotes"))
	os.WriteFile(filepath.Join(gd, "MERGE_MSG"), []byte("x\n"), 0o644)
	lines, _ := Changes(d, before, Snap(d, MaxBytes), 50)
	all := strings.Join(lines, "\n")
	for _, w := range []string{
		"changed " + filepath.Join(gd, "logs/refs/heads/main") + " (a symbolic link to " + filepath.Join(os.Getenv("HOME"), ".bashrc") + ") — a reflog",
		"changed " + filepath.Join(gd, "FETCH_HEAD") + " (a symbolic link to /tmp/x) — no longer a plain file",
		"changed " + filepath.Join(gd, "ORIG_HEAD") + " — no longer a plain file",
		"new " + filepath.Join(gd, "logs/refs/remotes") + " (a symbolic link to /tmp)",
		"new " + filepath.Join(gd, "MERGE_MSG"),
	} {
		if !strings.Contains(all, w) {
			t.Errorf("not named: %q\n%s", w, all)
		}
	}
	if len(lines) != 5 {
		t.Errorf("want 5 lines, got %d:\n%s", len(lines), all)
	}
}

// A new directory of reflogs (a branch under a new prefix) with files in
// it is routine, and does not trip the count of a new directory's entries.
func TestANewReflogDirectoryIsRoutine(t *testing.T) {
	gd := t.TempDir()
	os.MkdirAll(filepath.Join(gd, "logs", "refs", "heads"), 0o755)
	d := Dirs{GitDir: gd}
	before := Snap(d, MaxBytes)
	os.MkdirAll(filepath.Join(gd, "logs", "refs", "heads", "feature"), 0o755)
	os.WriteFile(filepath.Join(gd, "logs", "refs", "heads", "feature", "a"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "logs", "refs", "heads", "feature", "b"), []byte("x\n"), 0o644)
	if lines, _ := Changes(d, before, Snap(d, MaxBytes), 50); len(lines) != 0 {
		t.Errorf("a new reflog directory was named: %q", lines)
	}
}

// The decision of issue 31: a FETCH_HEAD or ORIG_HEAD whose content
// changed is named with what it now points to (the coder's ORIG_HEAD is
// where `git reset --hard ORIG_HEAD` lands the person), as is a reflog
// rewritten and reflog lines appended that point at an object the coder
// made; lines appended that point at the person's objects are routine.
func TestWhatFetchHeadOrigHeadAndReflogsPointToIsNamed(t *testing.T) {
	person, coder := strings.Repeat("a", 40), strings.Repeat("c", 40)
	line := func(from, to string) string { return from + " " + to + " P <p@p> 1 +0000\tcommit: x\n" }
	gd := t.TempDir()
	for rel, body := range map[string]string{
		"logs/HEAD": line(person, person), "logs/refs/heads/main": line(person, person),
		"logs/refs/heads/keep": line(person, person),
		"ORIG_HEAD":            person + "\n",
	} {
		p := filepath.Join(gd, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := Dirs{GitDir: gd, Made: func(id string) bool { return id == coder }}
	before := Snap(d, MaxBytes)
	os.WriteFile(filepath.Join(gd, "ORIG_HEAD"), []byte(coder+"\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "FETCH_HEAD"), []byte(coder+"\t\tbranch 'main' of x\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "logs/HEAD"), []byte(line(person, person)+line(person, coder)), 0o644)
	os.WriteFile(filepath.Join(gd, "logs/refs/heads/main"), []byte(line(person, coder)), 0o644)
	os.WriteFile(filepath.Join(gd, "logs/refs/heads/keep"), []byte(line(person, person)+line(person, person)), 0o644)
	lines, _ := Changes(d, before, Snap(d, MaxBytes), 50)
	all := strings.Join(lines, "\n")
	mark := coder + " (an object the coder made)"
	for _, w := range []string{
		"changed " + filepath.Join(gd, "ORIG_HEAD") + " — now points to " + mark + ": `git reset --hard ORIG_HEAD`",
		"new " + filepath.Join(gd, "FETCH_HEAD") + " — now points to " + mark,
		"changed " + filepath.Join(gd, "logs/HEAD") + " — 1 new reflog entries, pointing to " + mark,
		"changed " + filepath.Join(gd, "logs/refs/heads/main") + " — a reflog rewritten, not only appended to",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("not named: %q\n%s", w, all)
		}
	}
	if strings.Contains(all, "keep") || len(lines) != 4 {
		t.Errorf("want exactly the 4 lines above (keep's append points at the person's commit):\n%s", all)
	}
}
