//go:build unix

package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/sandbox"
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

// benchOverlay measures making a run's workspace the way a run does —
// snapshot, then an overlay workspace over the shared checkout (warm: the
// checkout of this snapshot's tree exists, as for every run after the
// first of a snapshot) — beside a clone workspace of the same snapshot.
func benchOverlay(b *testing.B, n int) {
	bin, err := testbin.Sentinel()
	if err != nil {
		b.Fatal(err)
	}
	overlayHelper = func() (string, error) { return bin, nil }
	b.Setenv("XDG_STATE_HOME", filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-bench-state-%d", n)))
	p := benchRepo(b, n)
	ctx := context.Background()
	if why := overlayUnavailable(ctx, p, sandbox.ModeAuto, false, ""); why != "" {
		b.Skip("no overlay here: " + why)
	}
	// The first run of a snapshot makes the shared checkout (a clone's
	// cost). The benchmark function runs more than once: start cold.
	if _, err := ClearCheckouts(); err != nil {
		b.Fatal(err)
	}
	id0 := NewRunID(time.Now())
	os.MkdirAll(p.RunDir(id0), 0o700)
	snap0, err := TakeSnapshot(ctx, p, p.RunDir(id0))
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	ws0, err := CreateOverlayWorkspace(ctx, p, snap0, p.WorkDir(id0), filepath.Join(p.RunDir(id0), "shadow.git"), "sentinel/"+id0, id0)
	if err != nil {
		b.Fatal(err)
	}
	first := time.Since(t0)
	ws0.removeDir()
	os.RemoveAll(p.RunDir(id0))

	var snapT, overT, cloneT, snapCPU, overCPU, cloneCPU, plainT, plainCPU, floorT, floorCPU time.Duration
	tracked, err := trackedPaths(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := NewRunID(time.Now().Add(time.Duration(i) * time.Second))
		runDir := p.RunDir(id)
		os.MkdirAll(runDir, 0o700)
		// The same snapshot without the untracked cache, beside it.
		b.StopTimer()
		p0, q0 := time.Now(), cpuTime()
		if _, err := takeSnapshot(ctx, p, runDir, snapshotOptions{}); err != nil {
			b.Fatal(err)
		}
		plainT += time.Since(p0)
		plainCPU += cpuTime() - q0
		// The floor under any snapshot that checks every tracked file.
		f0, g0 := time.Now(), cpuTime()
		lstatAll(tracked)
		floorT += time.Since(f0)
		floorCPU += cpuTime() - g0
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		snap, err := TakeSnapshot(ctx, p, runDir)
		if err != nil {
			b.Fatal(err)
		}
		t1, c1 := time.Now(), cpuTime()
		ws, err := CreateOverlayWorkspace(ctx, p, snap, p.WorkDir(id), filepath.Join(runDir, "shadow.git"), "sentinel/"+id, id)
		if err != nil {
			b.Fatal(err)
		}
		t2, c2 := time.Now(), cpuTime()
		snapCPU += c1 - c0
		overCPU += c2 - c1
		snapT += t1.Sub(t0)
		overT += t2.Sub(t1)
		b.StopTimer()
		ws.removeDir()
		if os.Getenv("SENTINEL_BENCH_NO_CLONE") != "" {
			os.RemoveAll(runDir)
			b.StartTimer()
			continue
		}
		w0, k0 := time.Now(), cpuTime()
		cl, err := CreateWorkspace(ctx, p, snap, p.WorkDir(id+"c"), filepath.Join(runDir, "shadowc.git"), "sentinel/"+id)
		if err != nil {
			b.Fatal(err)
		}
		cloneT += time.Since(w0)
		cloneCPU += cpuTime() - k0
		os.RemoveAll(cl.Dir)
		os.RemoveAll(runDir)
		b.StartTimer()
	}
	b.ReportMetric(snapT.Seconds()/float64(b.N), "s/snapshot")
	b.ReportMetric(overT.Seconds()/float64(b.N), "s/overlay-workspace")
	b.ReportMetric((snapT+overT).Seconds()/float64(b.N), "s/snapshot+overlay")
	b.ReportMetric(cloneT.Seconds()/float64(b.N), "s/clone-workspace")
	b.ReportMetric(plainT.Seconds()/float64(b.N), "s/snapshot-no-cache")
	b.ReportMetric(plainCPU.Seconds()/float64(b.N), "cpu-s/snapshot-no-cache")
	b.ReportMetric(floorT.Seconds()/float64(b.N), "s/lstat-every-file")
	b.ReportMetric(floorCPU.Seconds()/float64(b.N), "cpu-s/lstat-every-file")
	b.ReportMetric(first.Seconds(), "s/first-run-shared-checkout")
	// CPU seconds (this process and the git processes it waited for): on
	// a loaded machine, closer to the unloaded wall time than wall time.
	b.ReportMetric(snapCPU.Seconds()/float64(b.N), "cpu-s/snapshot")
	b.ReportMetric(overCPU.Seconds()/float64(b.N), "cpu-s/overlay-workspace")
	b.ReportMetric(cloneCPU.Seconds()/float64(b.N), "cpu-s/clone-workspace")
}

// cpuTime is the CPU time used by this process and its waited-for children.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// trackedPaths are the full paths of p's tracked files.
func trackedPaths(ctx context.Context, p *Project) ([]string, error) {
	out, err := gitCmd{dir: p.Root}.run(ctx, "ls-files", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, name := range strings.Split(out, "\x00") {
		if name != "" {
			paths = append(paths, filepath.Join(p.Root, name))
		}
	}
	return paths, nil
}

// lstatAll lstat's every path once, on as many threads as there are CPUs
// (git status's refresh does the same work in its preload threads): the
// floor under a snapshot that must look at every tracked file.
func lstatAll(paths []string) {
	n := runtime.NumCPU()
	var wg sync.WaitGroup
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for i := k; i < len(paths); i += n {
				os.Lstat(paths[i])
			}
		}(k)
	}
	wg.Wait()
}

// BenchmarkOverlayWorkspace50k and 500k: see benchOverlay.
//
//	go test -run '^$' -bench 'OverlayWorkspace' -benchtime 3x ./runner
//
// SENTINEL_BENCH_NO_CLONE=1 leaves out the clone beside it (minutes at 500k).
func BenchmarkOverlayWorkspace50k(b *testing.B)  { benchOverlay(b, 50000) }
func BenchmarkOverlayWorkspace500k(b *testing.B) { benchOverlay(b, 500000) }

// benchSnapshot measures, pairwise in each iteration (the order rotating),
// the snapshot's tree built from the changed paths (changedTree), the one
// `git add -A` on a copy of the index gives (treeByAdd), and the floor
// under the first: its two scans alone, side by side (diff-index against
// HEAD, ls-files --others), hardened as every git call. It checks the two
// trees agree; s/snapshot is the whole TakeSnapshot. CPU seconds (this
// process and its git processes) are steadier than wall time on a loaded
// machine.
//
//	go test -run '^$' -bench 'Snapshot(50|500)k' -benchtime 3x ./runner
func benchSnapshot(b *testing.B, n int) {
	p := benchRepo(b, n)
	ctx := context.Background()
	g := gitCmd{dir: p.Root}
	scratch := b.TempDir()
	base, err := g.line(ctx, "rev-parse", "HEAD")
	if err != nil {
		b.Fatal(err)
	}
	headTree, err := g.line(ctx, "rev-parse", "HEAD^{tree}")
	if err != nil {
		b.Fatal(err)
	}
	head := snapshotHead{commit: base, tree: headTree, index: filepath.Join(p.GitDir, "index")}
	var got, want string
	steps := []struct {
		name      string
		run       func() error
		wall, cpu time.Duration
	}{
		{name: "tree-by-changes", run: func() (err error) { got, err = changedTree(ctx, g, head, scratch, snapshotOptions{}); return }},
		{name: "tree-by-add", run: func() (err error) { want, err = treeByAdd(ctx, g, p, scratch); return }},
		{name: "scans", run: func() error {
			var wg sync.WaitGroup
			var e1, e2 error
			wg.Add(2)
			go func() { defer wg.Done(); _, e1 = g.run(ctx, "diff-index", "-z", "--no-renames", base, "--") }()
			go func() { defer wg.Done(); _, e2 = g.run(ctx, "ls-files", "-z", "--others", "--exclude-standard") }()
			wg.Wait()
			return errors.Join(e1, e2)
		}},
		{name: "snapshot", run: func() error { _, err := TakeSnapshot(ctx, p, scratch); return err }},
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range steps {
			st := &steps[(i+j)%len(steps)]
			t0, c0 := time.Now(), cpuTime()
			if err := st.run(); err != nil {
				b.Fatalf("%s: %v", st.name, err)
			}
			st.wall += time.Since(t0)
			st.cpu += cpuTime() - c0
		}
		if got != want {
			b.Fatalf("changed paths give tree %s, git add -A %s", got, want)
		}
	}
	for _, st := range steps {
		b.ReportMetric(st.wall.Seconds()/float64(b.N), "s/"+st.name)
		b.ReportMetric(st.cpu.Seconds()/float64(b.N), "cpu-s/"+st.name)
	}
	b.ReportMetric(float64(steps[0].wall)/float64(steps[1].wall), "ratio")
}

func BenchmarkSnapshot50k(b *testing.B)  { benchSnapshot(b, 50000) }
func BenchmarkSnapshot500k(b *testing.B) { benchSnapshot(b, 500000) }
