package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/sandbox"
)

// TestANewProjectsGoCacheStartsFromTheSeed: the Go cache a new project's
// coder (or `sentinel exec`'s program) gets holds the signed seed's
// compiled standard library, so its first go build compiles none of it
// (here: no compile of fmt in `go build -x`); a cache made before is left
// as it is, and a project that is not Go gets none.
func TestANewProjectsGoCacheStartsFromTheSeed(t *testing.T) {
	// The seed is built as Sentinel builds it, from the person's cache
	// (this machine's, which `go test` itself just used), once per test
	// process (seed_shared_test.go); the state and cache dirs are fresh.
	servedCoreSeed(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang bound
	defer cancel()

	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "go.mod"), "module example.com/tiny\n\ngo 1.21\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hi\") }\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	p, err := FindProject(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	// The profile exec's (and a run's) coder gets.
	r := &containment{runCore: &runCore{opts: Options{InPlace: true, Project: p}, ws: &Workspace{Dir: p.Root}}}
	gocache := ""
	for _, e := range r.profile().Env {
		if v, ok := strings.CutPrefix(e, "GOCACHE="); ok {
			gocache = v
		}
	}
	if gocache == "" {
		t.Fatal("the coder's profile names no GOCACHE")
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-x", "-o", os.DevNull, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOCACHE="+gocache, "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, tailLines(string(out), 20, 4000))
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "/compile ") && strings.Contains(line, " -p fmt ") {
			t.Fatalf("the project's first go build compiled fmt: its Go cache did not start from the seed\n%s", line)
		}
	}

	// A project that is not Go gets no copy of the Go seed.
	plain := t.TempDir()
	SeedProjectGoCache(ctx, plain)
	if root, err := sandbox.ProjectCacheDir(plain); err != nil {
		t.Fatal(err)
	} else if _, err := os.Stat(filepath.Join(root, "go-build")); err == nil {
		t.Error("a project with no go.mod got a copy of the Go seed")
	}

	// A cache that exists is the project's: it is not seeded again.
	mark := filepath.Join(gocache, "kept")
	write(t, mark, "x")
	SeedProjectGoCache(ctx, p.Root)
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("an existing project cache was replaced: %v", err)
	}
}
