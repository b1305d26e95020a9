package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// benchRepo returns a repository of n generated files, committed, with a
// few uncommitted changes; it is built once and kept under the temp dir.
func benchRepo(b *testing.B, n int) *Project {
	b.Helper()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-bench-repo-%d", n))
	if _, err := os.Stat(filepath.Join(dir, ".git", "sentinel-bench-ready")); err != nil {
		os.RemoveAll(dir)
		for i := 0; i < n; i++ {
			p := filepath.Join(dir, fmt.Sprintf("pkg%03d/sub%02d/file%05d.go", i%500, i%37, i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			body := fmt.Sprintf("package p\n\n// File %d.\nvar X%d = %d\n", i, i, i*7)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "generated"}} {
			cmd := exec.Command("git", append([]string{"-c", "user.name=B", "-c", "user.email=b@b"}, args...)...)
			cmd.Dir = dir
			cmd.Env = gitEnv()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		os.WriteFile(filepath.Join(dir, ".git", "sentinel-bench-ready"), nil, 0o644)
	}
	// Uncommitted work, as a person would have.
	os.WriteFile(filepath.Join(dir, "pkg000/sub00/file00000.go"), []byte("package p\n// edited\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "UNTRACKED.md"), []byte("notes\n"), 0o644)
	p, err := FindProject(context.Background(), dir)
	if err != nil {
		b.Fatal(err)
	}
	if err := p.EnsureState(); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkWorkspace50k creates a Sentinel workspace (snapshot of HEAD plus
// uncommitted changes, shared clone, checkout, shadow git dir) for a
// 50,000-file repository and, in the same iteration, a plain
// `git worktree add` of the same repository; it reports both and the ratio.
//
//	go test -run '^$' -bench Workspace50k -benchtime 3x ./runner
func BenchmarkWorkspace50k(b *testing.B) {
	p := benchRepo(b, 50000)
	ctx := context.Background()
	var ours, theirs time.Duration
	for i := 0; i < b.N; i++ {
		id := fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i)
		runDir := p.RunDir(id)
		os.MkdirAll(runDir, 0o700)

		t0 := time.Now()
		snap, err := TakeSnapshot(ctx, p, runDir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := CreateWorkspace(ctx, p, snap, p.WorkDir(id), filepath.Join(runDir, "shadow.git"), "sentinel/"+id); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(t0)

		wt := filepath.Join(os.TempDir(), "sentinel-bench-wt-"+id)
		t1 := time.Now()
		g := gitCmd{dir: p.Root}
		if _, err := g.run(ctx, "worktree", "add", "-q", "--detach", wt, "HEAD"); err != nil {
			b.Fatal(err)
		}
		theirs += time.Since(t1)

		b.StopTimer()
		os.RemoveAll(p.WorkDir(id))
		os.RemoveAll(runDir)
		g.run(ctx, "worktree", "remove", "--force", wt)
		os.RemoveAll(wt)
		b.StartTimer()
	}
	b.ReportMetric(ours.Seconds()/float64(b.N), "s/sentinel-workspace")
	b.ReportMetric(theirs.Seconds()/float64(b.N), "s/git-worktree-add")
	b.ReportMetric(float64(ours)/float64(theirs), "ratio")
}
