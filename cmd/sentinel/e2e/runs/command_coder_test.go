package runs

import (
	"os/exec"
	"strings"
	"testing"
)

func TestAnyCommandRunsSandboxedAndLands(t *testing.T) {
	dir := scratchRepo(t)
	script := "echo hi > out.txt"
	_, curlErr := exec.LookPath("curl")
	if curlErr == nil {
		script += "; curl -fsS --max-time 10 http://example.com/ || echo NO-NETWORK"
	}
	res := sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "make out.txt", "--", "sh", "-c", script)
	if res.code != 0 {
		t.Fatalf("exit %d: %s\n%s", res.code, res.stderr, res.stdout)
	}
	if !strings.Contains(res.stdout, "per-command approval is not available") {
		t.Fatalf("the run does not say plainly that there is no per-command approval:\n%s", res.stdout)
	}
	branch := git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)")
	if got := git(t, dir, "show", branch+":out.txt"); got != "hi" {
		t.Fatalf("out.txt = %q", got)
	}
	if curlErr == nil {
		// The network is reachable only through the proxy, which asks.
		if !strings.Contains(res.stdout, "[APPROVAL] net: example.com:80") || !strings.Contains(res.stdout, "NO-NETWORK") {
			t.Fatalf("the new host was not turned into a denied approval request:\n%s", res.stdout)
		}
	}
	bad := sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "x", "--", "no-such-program-xyz")
	if bad.code != 1 || !strings.Contains(bad.stderr, "no-such-program-xyz") {
		t.Fatalf("a missing program: %d %q", bad.code, bad.stderr)
	}
}
