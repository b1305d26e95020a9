package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=A", "-c", "user.email=a@example.com"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// refs/replace and info/ are read-only to the coder in place; what git
// acts on later that the coder left anyway (a replace ref in
// packed-refs, a stopped rebase with an exec line) is taken out at the
// end, flagged as dangerous with how to put it back, and listed as
// quarantined.
func TestInPlaceTakesOutWhatGitActsOnLater(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "Makefile"), []byte("all:\n\ttrue\n"), 0o644)
	gitRun(t, root, "add", "Makefile")
	gitRun(t, root, "commit", "-qm", "one")
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	prot, err := gitProtected(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(p.GitDir, "refs", "replace"), filepath.Join(p.GitDir, "info")} {
		if !slices.Contains(prot, d) {
			t.Errorf("%s is writable to the coder: %v", d, prot)
		}
	}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	blob := gitRun(t, root, "rev-parse", "HEAD:Makefile")
	ev := gitRun(t, root, "hash-object", "-w", "--stdin", "--path=x")
	f, _ := os.OpenFile(filepath.Join(p.GitDir, "packed-refs"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	f.WriteString(ev + " refs/replace/" + blob + "\n")
	f.Close()
	os.MkdirAll(filepath.Join(p.GitDir, "rebase-merge"), 0o755)
	os.WriteFile(filepath.Join(p.GitDir, "rebase-merge", "git-rebase-todo"), []byte("exec touch PWNED\n"), 0o644)
	var told []string
	moved := g.finish(context.Background(), nil, func(_ journal.Lane, _ journal.Kind, s string, _ any) { told = append(told, s) })
	all := strings.Join(told, "\n")
	for _, w := range []string{"DANGEROUS: the coder made the replace ref refs/replace/" + blob, "git update-ref refs/replace/" + blob + " " + ev, "DANGEROUS: the coder left a left-over rebase", "touch PWNED"} {
		if !strings.Contains(all, w) {
			t.Errorf("not told: %q\n%s", w, all)
		}
	}
	if out, _ := exec.Command("git", "-C", root, "replace", "-l").Output(); strings.TrimSpace(string(out)) != "" {
		t.Errorf("the replace ref is still there: %s", out)
	}
	if _, err := os.Lstat(filepath.Join(p.GitDir, "rebase-merge")); err == nil {
		t.Error("the rebase state is still in the repository")
	}
	if !slices.ContainsFunc(moved, func(m string) bool { return strings.Contains(m, "rebase-merge") }) {
		t.Errorf("the summary's quarantine list lacks the rebase state: %v", moved)
	}
	if s := (RefMove{Ref: "refs/replace/" + blob, After: ev}).String(); !strings.Contains(s, "runs later") {
		t.Errorf("a new replace ref is not flagged: %s", s)
	}
}
