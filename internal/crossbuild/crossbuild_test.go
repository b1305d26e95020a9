package crossbuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// targets are the platforms besides Linux that Sentinel must build for.
var targets = []struct{ goos, goarch string }{
	{"darwin", "arm64"},
	{"darwin", "amd64"},
	{"windows", "amd64"},
}

// TestModuleBuildsAndVetsForEveryTarget runs `go vet ./...` (which
// type-checks every package and its tests) and `go build ./...` for each
// target, one after another. It costs minutes on a cold cache (about 3 to
// 5 per target on two shared cores; seconds when cached), so -short skips
// it.
func TestModuleBuildsAndVetsForEveryTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds and vets the module for darwin/arm64, darwin/amd64 and windows/amd64: minutes; run without -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not two levels up: %v", err)
	}
	for _, tg := range targets {
		for _, verb := range []string{"vet", "build"} {
			cmd := exec.Command(goBin, verb, "./...")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOOS="+tg.goos, "GOARCH="+tg.goarch, "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("GOOS=%s GOARCH=%s go %s ./...: %v\n%s", tg.goos, tg.goarch, verb, err, strings.TrimSpace(string(out)))
			}
		}
	}
}
