package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// installShims runs sentinel shims install --dir into a fresh directory.
func installShimsIn(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shims")
	res := e2etest.Sentinel(t, t.TempDir(), nil, "shims", "install", "--dir", dir)
	if res.Code != 0 || !strings.Contains(res.Stdout, "export PATH='"+dir+"':$PATH") {
		t.Fatalf("shims install: exit %d\n%s%s", res.Code, res.Stdout, res.Stderr)
	}
	return dir
}

// A shim where the sandbox cannot be enforced (here: inside another
// sandbox, which allows no new namespaces) refuses and never runs the
// program bare; the documented bypass runs it bare, says so, and leaves the
// variable in its environment.
func TestShimRefusesWithoutSandbox(t *testing.T) {
	t.Parallel()
	shims := installShimsIn(t)
	bin := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(bin, "aider"), "#!/bin/sh\necho \"REAL-AIDER bypass=$SENTINEL_SHIM_BYPASS\"\n")
	if err := os.Chmod(filepath.Join(bin, "aider"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := shims + ":" + bin + ":/usr/bin:/bin"
	ws := t.TempDir()
	res := e2etest.Sentinel(t, ws, nil, "sandbox", "run", "--workspace", ws, "--read", shims, "--read", bin, "--read", filepath.Dir(e2etest.Bin),
		"--", "/bin/sh", "-c", "PATH="+path+"; aider hi")
	if res.Code == 0 || strings.Contains(res.Stdout, "REAL-AIDER") || !strings.Contains(res.Stderr, "refusing to run "+filepath.Join(bin, "aider")) ||
		!strings.Contains(res.Stderr, "cannot enforce its sandbox") {
		t.Fatalf("a shim without a sandbox: exit %d\nstdout: %s\nstderr: %s", res.Code, res.Stdout, res.Stderr)
	}

	bypass := e2etest.Run(t, "/bin/sh", ws, []string{"PATH=" + path, "SENTINEL_SHIM_BYPASS=1"}, "-c", "aider hi")
	if bypass.Code != 0 || !strings.Contains(bypass.Stdout, "REAL-AIDER bypass=1") || !strings.Contains(bypass.Stderr, "warning: SENTINEL_SHIM_BYPASS=1: running") {
		t.Fatalf("bypass: exit %d\nstdout: %s\nstderr: %s", bypass.Code, bypass.Stdout, bypass.Stderr)
	}

	un := e2etest.Sentinel(t, ws, nil, "shims", "uninstall", "--dir", shims)
	if un.Code != 0 {
		t.Fatalf("uninstall: %d %s", un.Code, un.Stderr)
	}
	if _, err := os.Stat(filepath.Join(shims, "aider")); err == nil {
		t.Fatal("uninstall left the aider shim")
	}
}
