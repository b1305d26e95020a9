//go:build unix

package mcpserver

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	sentinelrunner "github.com/sentinelhq/sentinel/runner"
)

// placeState is every entry under root but .git, byte for byte: path,
// kind, mode, content or link target.
func placeState(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.Name() == ".git" {
			return fs.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// An exec call through `sentinel mcp` that deletes tracked, untracked and
// ignored files can be undone: the server checkpoints each rw path just
// before every writing call, in the store `sentinel undo` reads, so the
// record is listed there with one point per allowed call (a refused call
// leaves none), and undo --to the point before the deleting call puts the
// place back byte for byte — the later calls' work going with it.
func TestUndoOneMCPExecCall(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, ".gitignore"), "build/\n*.log\n")
	write(t, filepath.Join(app, "src/main.go"), "package main\n")
	write(t, filepath.Join(app, "run.sh"), "#!/bin/sh\necho run\n")
	if err := os.Chmod(filepath.Join(app, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, app, "init", "-q")
	gitIn(t, app, "add", ".")
	gitIn(t, app, "commit", "-qm", "init")
	write(t, filepath.Join(app, "notes.txt"), "hello world\nuncommitted, the person's\n") // tracked, modified
	write(t, filepath.Join(app, "scratch.md"), "untracked draft\n")
	write(t, filepath.Join(app, "build/out.bin"), "\x00\x01 ignored build output")
	write(t, filepath.Join(app, "debug.log"), "ignored log\n")
	if err := os.Symlink("src/main.go", filepath.Join(app, "main-link")); err != nil {
		t.Fatal(err)
	}

	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, srv := stdioSession(t, cfg, Options{Helper: bin})
	mustAllow(t, cs, "exec", map[string]any{"command": "echo one > first.txt"})
	want := placeState(t, app)
	got := mustAllow(t, cs, "exec", map[string]any{"command": "rm -rf build debug.log notes.txt src scratch.md main-link run.sh .gitignore"})
	if !strings.Contains(got, "[exit 0]") {
		t.Fatalf("the deleting call: %s", got)
	}
	mustRefuse(t, cs, "exec", map[string]any{"command": "cat ~/.ssh/id_rsa"}, ClassPolicyDeny)
	mustRefuse(t, cs, "delete", map[string]any{"path": f.secret}, ClassPathNotAllowed)
	mustAllow(t, cs, "exec", map[string]any{"command": "echo later > later.txt"})
	if _, err := os.Stat(filepath.Join(app, "src")); err == nil {
		t.Fatal("the deleting call deleted nothing")
	}

	ctx := context.Background()
	p, err := sentinelrunner.FindInPlaceProject(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sentinelrunner.CheckpointRecords(p)
	if err != nil || len(recs) != 1 || recs[0].Kind != "mcp" || !recs[0].HasAfter {
		t.Fatalf("sentinel undo --list does not show the server's record: %v %+v", err, recs)
	}
	rec := recs[0]
	var calls []string
	for _, pt := range rec.Points {
		calls = append(calls, fmt.Sprintf("%d %s", pt.N, pt.Call))
	}
	if len(rec.Points) != 3 || rec.Points[1].N != 2 || rec.Points[2].N != 4 || !strings.HasPrefix(rec.Points[1].Call, "exec: rm -rf build") {
		t.Fatalf("points (a refused call must leave none): %q", calls)
	}
	var pointed []string
	for _, c := range auditCalls(t, srv) {
		if c.Tool == "exec" || c.Tool == "delete" {
			pointed = append(pointed, fmt.Sprint(c.Tool, " ", c.Point))
		}
	}
	if strings.Join(pointed, ", ") != "exec 1, exec 2, exec 0, delete 0, exec 4" {
		t.Errorf("the audit does not name each call's point: %v", pointed)
	}

	rep, err := sentinelrunner.Undo(ctx, p, rec.ID, sentinelrunner.UndoOptions{To: 2})
	if err != nil {
		t.Fatalf("undo --to 2: %v (%+v)", err, rep)
	}
	if now := placeState(t, app); now != want {
		t.Fatalf("undo did not put the place back byte for byte:\nwant\n%s\ngot\n%s", want, now)
	}
}
