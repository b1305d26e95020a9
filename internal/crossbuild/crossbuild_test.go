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

// TestModuleBuildsAndVetsForEveryTarget runs, for each target one after
// another, `go vet ./...` (which type-checks every package and its tests)
// and `go list -export ./...`, which compiles every package (assembly
// included) as `go build ./...` does but links nothing: `go build ./...`
// also linked the three commands for every target, on every run, cached or
// not (about 6 s of CPU a target), and a link can fail only on what this
// module does not have (cgo, //go:linkname, assembly calling outside its
// package; the one assembly file, sandbox/internal/escapeprobe, is in no
// command). It costs minutes on a cold cache (about 3 to 5 per target on
// two shared cores; seconds when cached), so -short skips it.
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
		for _, args := range [][]string{{"vet", "./..."}, {"list", "-export", "-f", "{{if .Error}}{{.Error}}{{end}}", "./..."}} {
			cmd := exec.Command(goBin, args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GOOS="+tg.goos, "GOARCH="+tg.goarch, "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("GOOS=%s GOARCH=%s go %s: %v\n%s", tg.goos, tg.goarch, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
			}
		}
	}
}
