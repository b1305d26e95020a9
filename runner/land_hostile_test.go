package runner

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// hostileNames are paths a coder may create that must never land: git's
// and Sentinel's own directories in every spelling a file system takes for
// them, and another repository nested in the workspace.
var hostileNames = []string{
	".sentinel/config.toml",
	".sentinel/templates.toml",
	".SENTINEL/x",
	".Sentinel./y",
	".sen\u200ctinel/z", // HFS+ ignores the zero-width non-joiner
	"SENTIN~1/w",        // the 8.3 short name
	".Git/hooks/post-checkout",
	".git./config",
	".g\u200dit/config",
	"GIT~1/config",
	"sub/.git/config",
	"deep/er/.GIT/hooks/pre-commit",
}

// wsRun is a project (with the person's own ignored .sentinel/config.toml)
// and a workspace on its snapshot.
func wsRun(t *testing.T, id string) (*Project, *Workspace, Snapshot, string) {
	t.Helper()
	ctx := context.Background()
	p := dirtyRepo(t)
	write(t, filepath.Join(p.StateDir(), "config.toml"), "# the person's own\n")
	runDir := p.RunDir(id)
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	snap, err := TakeSnapshot(ctx, p, runDir)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := CreateWorkspace(ctx, p, snap, p.WorkDir(id), filepath.Join(runDir, "shadow.git"), "sentinel/"+id)
	if err != nil {
		t.Fatal(err)
	}
	return p, ws, snap, runDir
}

func TestDiffLeavesOutGitAndSentinelInEverySpelling(t *testing.T) {
	t.Parallel()

	for _, mode := range []ApplyMode{ApplyBranch, ApplyWorktree} {
		t.Run(string(mode), func(t *testing.T) {
			ctx := context.Background()
			p, ws, snap, runDir := wsRun(t, "20260101-000000-0000b1")
			for _, n := range hostileNames {
				write(t, filepath.Join(ws.Dir, filepath.FromSlash(n)), "planted by the coder\n")
			}
			write(t, filepath.Join(ws.Dir, "ok.txt"), "fine\n")
			ch, err := ws.Diff(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Left) < len(hostileNames)-3 { // nested repos are listed once per directory
				t.Fatalf("left out = %q", ch.Left)
			}
			if strings.Join(ch.Files, ",") != "ok.txt" {
				t.Fatalf("changed files = %q, want only ok.txt", ch.Files)
			}
			if strings.Contains(string(ch.Patch), "planted") {
				t.Fatalf("the patch carries a planted file:\n%s", ch.Patch)
			}
			patch := filepath.Join(runDir, "patch.diff")
			os.WriteFile(patch, ch.Patch, 0o600)
			if _, err := Land(ctx, p, snap, ch, mode, "20260101-000000-0000b1", "m", patch, runDir); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(p.StateDir(), "config.toml")); string(b) != "# the person's own\n" {
				t.Fatalf("the person's .sentinel/config.toml became %q", b)
			}
			if mode == ApplyBranch {
				if files := gitT(t, p.Root, "ls-tree", "-r", "--name-only", "sentinel/20260101-000000-0000b1"); strings.Contains(strings.ToLower(files), "sentinel") || strings.Contains(files, "config") {
					t.Fatalf("the branch carries:\n%s", files)
				}
			}
			for _, n := range hostileNames {
				if b, err := os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(n))); err == nil && strings.Contains(string(b), "planted") {
					t.Fatalf("%s landed in the project", n)
				}
			}
		})
	}
}

func TestCheckPathsRefusesGitAndSentinelInEverySpelling(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	bad := append([]string{
		".sentinel", ".sentinel/runs/x/meta.json", ".sentinel ", ".sentinel::$DATA/x", ".SeNtInEl/config.toml",
		".\u017fentinel/config.toml", // ſ folds to s
		"\ufeff.sentinel/x", ".git", ".git/config", ".GIT/config", ".git /config", ".git.../x",
		".git::$INDEX_ALLOCATION/config", "a/b/.git/hooks/x", "a\\.git\\config", "git~1/config", "GIT~12/config",
		".\u200eg\u202ait\u206f/x", "a/../../x", ".. /x", "a/./b", "a//b", "/etc/passwd", "\\\\server\\share",
	}, hostileNames...)
	for _, f := range bad {
		if err := CheckPaths(root, []string{"ok.txt", f}); err == nil {
			t.Errorf("CheckPaths accepted %q", f)
		}
	}
	good := []string{"src/.sentinel/x", "sentinel/x", ".sentinels/x", ".gitignore", ".github/workflows/ci.yml",
		".gitattributes", "a.git/x", "git~x/y", "gits/x", ".gitmodules", "docs/.git-blame-ignore-revs"}
	if err := CheckPaths(root, good); err != nil {
		t.Errorf("CheckPaths refused ordinary paths: %v", err)
	}
}

// objectFiles lists the project's object store.
func objectFiles(t *testing.T, p *Project) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(p.ObjectsDir(), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestRefusedLandingsWriteNoObjects: a worktree apply (applied or refused)
// and a refused branch landing leave the project's object store as it was;
// only a branch that lands brings its objects in.
func TestRefusedLandingsWriteNoObjects(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	p, ws, snap, runDir := wsRun(t, "20260101-000000-0000c1")
	write(t, filepath.Join(ws.Dir, "big.bin"), strings.Repeat("coder bytes\n", 5000))
	write(t, filepath.Join(ws.Dir, "a.txt"), "coder rewrote a\n")
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(runDir, "patch.diff")
	os.WriteFile(patch, ch.Patch, 0o600)
	before := strings.Join(objectFiles(t, p), "\n")

	// The person changed a.txt too: the worktree apply is refused.
	write(t, filepath.Join(p.Root, "a.txt"), "the person's own edit\n")
	if _, err := Land(ctx, p, snap, ch, ApplyWorktree, "20260101-000000-0000c1", "m", patch, runDir); err == nil {
		t.Fatal("a conflicting worktree apply succeeded")
	}
	if after := strings.Join(objectFiles(t, p), "\n"); after != before {
		t.Fatalf("a refused worktree apply wrote objects into the project:\n%s", after)
	}
	write(t, filepath.Join(p.Root, "a.txt"), "a\nmodified\n")
	if _, err := Land(ctx, p, snap, ch, ApplyWorktree, "20260101-000000-0000c1", "m", patch, runDir); err != nil {
		t.Fatal(err)
	}
	if after := strings.Join(objectFiles(t, p), "\n"); after != before {
		t.Fatalf("a worktree apply wrote objects into the project:\n%s", after)
	}
	// A branch that already exists: refused, nothing written.
	gitT(t, p.Root, "branch", "sentinel/20260101-000000-0000c1", snap.Base)
	if _, err := Land(ctx, p, snap, ch, ApplyBranch, "20260101-000000-0000c1", "m", patch, runDir); err == nil {
		t.Fatal("landing over an existing branch succeeded")
	}
	if after := strings.Join(objectFiles(t, p), "\n"); after != before {
		t.Fatalf("a refused branch landing wrote objects into the project:\n%s", after)
	}
	// And a landing that happens brings everything the branch needs.
	gitT(t, p.Root, "branch", "-D", "sentinel/20260101-000000-0000c1")
	if _, err := Land(ctx, p, snap, ch, ApplyBranch, "20260101-000000-0000c1", "m", patch, runDir); err != nil {
		t.Fatal(err)
	}
	gitT(t, p.Root, "fsck", "--connectivity-only", "--no-dangling")
	if got := gitT(t, p.Root, "show", "sentinel/20260101-000000-0000c1:a.txt"); got != "coder rewrote a" {
		t.Fatalf("landed a.txt = %q", got)
	}
}

func TestDiffRefusesAChangeOverTheLimits(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	_, ws, _, _ := wsRun(t, "l1")
	ws.Limits = Limits{MaxFileBytes: 1 << 20, MaxTotalBytes: 3 << 20}
	noise := make([]byte, 1<<20+1)
	rand.New(rand.NewSource(1)).Read(noise)
	write(t, filepath.Join(ws.Dir, "big.bin"), string(noise))
	_, err := ws.Diff(ctx)
	if !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "big.bin") || !strings.Contains(err.Error(), "--max-file-size 2MB") {
		t.Fatalf("one file over the limit: %v", err)
	}
	// Refused before git read it: the file was not even hashed.
	var stored int64
	filepath.WalkDir(filepath.Join(ws.Shadow, "objects"), func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if st, err := d.Info(); err == nil {
				stored += st.Size()
			}
		}
		return nil
	})
	if stored > 1<<19 {
		t.Fatalf("the refused file was hashed into the shadow git dir (%d bytes of objects)", stored)
	}
	os.Remove(filepath.Join(ws.Dir, "big.bin"))
	// A tracked file grown over the limit counts too.
	write(t, filepath.Join(ws.Dir, "a.txt"), strings.Repeat("a\n", 1<<20))
	if _, err := ws.Diff(ctx); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "a.txt") {
		t.Fatalf("a tracked file over the limit: %v", err)
	}
	write(t, filepath.Join(ws.Dir, "a.txt"), "a\n")
	for _, n := range []string{"p1", "p2", "p3", "p4"} {
		write(t, filepath.Join(ws.Dir, n), strings.Repeat(n, 1<<19))
	}
	if _, err := ws.Diff(ctx); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "--max-change-size") {
		t.Fatalf("the whole change over the limit: %v", err)
	}
	ws.Limits.MaxTotalBytes = 5 << 20
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatalf("raised limit: %v", err)
	}
	if len(ch.Files) != 5 {
		t.Fatalf("files = %v", ch.Files)
	}
}

func TestPatchTextOverTheLimitStopsGit(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	_, ws, _, _ := wsRun(t, "l2")
	// Compressible content: small per file, but deleting a tracked file's
	// lines and adding many still makes a patch over a tiny limit.
	ws.Limits = Limits{MaxFileBytes: 1 << 20, MaxTotalBytes: 300 << 10}
	for _, n := range []string{"20260101-000000-0000c1", "20260101-000000-0000c2", "20260101-000000-0000c3"} {
		write(t, filepath.Join(ws.Dir, n), strings.Repeat("line\n", 20000))
	}
	if _, err := ws.Diff(ctx); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "patch is larger") {
		t.Fatalf("patch text over the limit: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"10": 10, "10B": 10, "2KB": 2048, "50MB": 50 << 20, "1GB": 1 << 30, "3mb": 3 << 20} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1MB", "1.5MB", "MB", "10XB", "99999999999GB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}
