package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// direct runs the real opencode as the person would, outside Sentinel, in
// the project: opencode takes its project from $PWD, not from the
// directory it starts in, so PWD is set (with this process's PWD it made
// its session in the test package's directory and snapshotted the whole
// checkout, about 30 CPU-s a run). Its npm registry is a closed port on
// loopback, as the sandbox's proxy refuses it in the runs under Sentinel:
// the person's config dir is writable here, and opencode would otherwise
// install its plugin package into it from the real registry. npm's fetch
// retries a refused connection (10 s, then 60 s, by its defaults) and
// opencode waits for that install before it starts: with no retries the
// refusal ends the install at once (the run took 70 s longer without).
func direct(t *testing.T, w *opencodeExecWorld, task string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e2etest.HangBound)
	defer cancel()
	cmd := exec.CommandContext(ctx, "opencode", "run", task)
	cmd.Dir = w.dir
	noNet := "http://127.0.0.1:9"
	cmd.Env = append(append(os.Environ(), w.env...), "PWD="+w.dir,
		"HTTP_PROXY="+noNet, "HTTPS_PROXY="+noNet, "http_proxy="+noNet, "https_proxy="+noNet,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"NPM_CONFIG_REGISTRY="+noNet, "BUN_CONFIG_REGISTRY="+noNet, "NPM_CONFIG_FETCH_RETRIES=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("opencode run (directly): %v\n%s", err, out)
	}
}

// treeSums lists every file under roots (logs aside) with its content's
// hash, one a line.
func treeSums(t *testing.T, roots ...string) string {
	t.Helper()
	var b strings.Builder
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "log" {
				return filepath.SkipDir
			}
			if d.IsDir() {
				b.WriteString(p + "/\n")
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			b.WriteString(p + " " + hex.EncodeToString(sum[:8]) + "\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
