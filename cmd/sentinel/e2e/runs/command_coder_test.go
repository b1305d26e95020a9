package runs

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

func TestAnyCommandRunsSandboxedAndLands(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	script := "echo hi > out.txt"
	_, curlErr := exec.LookPath("curl")
	if curlErr == nil {
		script += "; curl -fsS --max-time 10 http://example.com/ || echo NO-NETWORK"
	}
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "make out.txt", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if !strings.Contains(res.Stdout, "per-command approval is not available") {
		t.Fatalf("the run does not say plainly that there is no per-command approval:\n%s", res.Stdout)
	}
	branch := e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
	if got := e2etest.Git(t, dir, "show", branch+":out.txt"); got != "hi" {
		t.Fatalf("out.txt = %q", got)
	}
	if curlErr == nil {
		// The network is reachable only through the proxy, which asks.
		if !strings.Contains(res.Stdout, "[APPROVAL] net: example.com:80") || !strings.Contains(res.Stdout, "NO-NETWORK") {
			t.Fatalf("the new host was not turned into a denied approval request:\n%s", res.Stdout)
		}
	}
	bad := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "x", "--", "no-such-program-xyz")
	if bad.Code != 1 || !strings.Contains(bad.Stderr, "no-such-program-xyz") {
		t.Fatalf("a missing program: %d %q", bad.Code, bad.Stderr)
	}
}
