package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=A", "-c", "user.email=a@example.com"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// What git acts on later is named when it is new or changed: a replace
// ref (loose and packed), a left-over rebase with its exec line, shallow,
// info/grafts; what the person had and left as it was is not.
func TestLaterNamesWhatGitActsOnLater(t *testing.T) {
	d := t.TempDir()
	gitT(t, d, "init", "-q")
	os.WriteFile(filepath.Join(d, "Makefile"), []byte("all:\n\ttrue\n"), 0o644)
	gitT(t, d, "add", "Makefile")
	gitT(t, d, "commit", "-qm", "one")
	gitT(t, d, "commit", "-q", "--allow-empty", "-m", "two")
	gd := filepath.Join(d, ".git")
	os.WriteFile(filepath.Join(gd, "MERGE_HEAD"), []byte("x\n"), 0o644) // the person's: left alone
	l := SnapLater(gd, gd)
	if got := l.Changed(); len(got) != 0 {
		t.Fatalf("nothing changed, but: %+v", got)
	}
	blob := gitT(t, d, "rev-parse", "HEAD:Makefile")
	ev := gitT(t, d, "hash-object", "-w", "--stdin", "--path=x") // empty blob
	gitT(t, d, "replace", "-f", blob, ev)
	os.WriteFile(filepath.Join(gd, "shallow"), []byte(blob+"\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "info", "grafts"), []byte(blob+"\n"), 0o644)
	os.MkdirAll(filepath.Join(gd, "rebase-merge"), 0o755)
	os.WriteFile(filepath.Join(gd, "rebase-merge", "git-rebase-todo"), []byte("pick abc two\nexec touch PWNED\n"), 0o644)
	os.WriteFile(filepath.Join(gd, "rebase-merge", "orig-head"), []byte(blob+"\n"), 0o644)
	got := l.Changed()
	var all []string
	for _, it := range got {
		all = append(all, it.Path+" "+it.What)
	}
	s := strings.Join(all, "\n")
	for _, w := range []string{"refs/replace/" + blob, "shallow", "grafts", "rebase-merge", "exec lines on your machine: touch PWNED", "--abort` would reset hard to " + blob[:12]} {
		if !strings.Contains(s, w) {
			t.Errorf("not named: %q\n%s", w, s)
		}
	}
	if strings.Contains(s, "MERGE_HEAD") {
		t.Errorf("the person's own state was named:\n%s", s)
	}
	// Packed: only in packed-refs.
	l.Forget()
	gitT(t, d, "pack-refs", "--all")
	got = l.Changed()
	if len(got) != 1 || got[0].Ref != "refs/replace/"+blob || got[0].Path != "" || got[0].ID != ev {
		t.Errorf("the packed replace ref is not named alone: %+v", got)
	}
}

// An object file deleted since the snapshot is named as gone.
func TestObjectsChangedNamesDeletions(t *testing.T) {
	d := t.TempDir()
	gitT(t, d, "init", "-q")
	gitT(t, d, "commit", "-q", "--allow-empty", "-m", "one")
	o := SnapObjects(filepath.Join(d, ".git", "objects"))
	if c := o.Changed(); len(c.Gone) != 0 {
		t.Fatalf("nothing deleted, but: %v", c.Gone)
	}
	id := gitT(t, d, "rev-parse", "HEAD")
	os.Remove(filepath.Join(d, ".git", "objects", id[:2], id[2:]))
	if c := o.Changed(); len(c.Gone) != 1 || c.Gone[0] != id[:2]+"/"+id[2:] {
		t.Errorf("the deleted commit object is not named: %v", c.Gone)
	}
}
