package tmux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/policy"
)

// sandboxRefusesScenario asks for a program installed into GOBIN (which
// the sandbox keeps read-only) and adds a module go would have to store
// in its read-only module cache.
const sandboxRefusesScenario = `
name = "refused"

[[steps]]
id = "install"
shell = "go install example.com/tool@v1.0.0"

[[steps]]
id = "get"
shell = "go get example.com/dep@v1.0.0"

[[steps]]
say = "went on"
`

// TestApprovalsTheSandboxWouldRefuseAreNotOffered: under tmux with the real
// binary, a go install (asked by the policy, but its GOBIN is read-only in
// the sandbox) and the Go proxy's host during a go get (go could not store
// the module) get no card: each is denied by the sandbox with why, the
// screen says why, and the coder goes on.
func TestApprovalsTheSandboxWouldRefuseAreNotOffered(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/refused\n\ngo 1.21\n")
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "go module")
	scenario := filepath.Join(t.TempDir(), "refused.toml")
	e2etest.WriteFile(t, scenario, sandboxRefusesScenario)
	// The person's own Go: its GOPATH's bin and module cache are shown
	// read-only inside (a toolchain), never writable.
	out, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	goenv := strings.Fields(string(out))
	gobin, modcache := filepath.Join(filepath.SplitList(goenv[0])[0], "bin"), goenv[1]
	if strings.HasPrefix(gobin, os.TempDir()) || strings.HasPrefix(modcache, os.TempDir()) {
		t.Skip("GOPATH is under the temp dir, which the sandbox replaces with its own writable one")
	}
	// Fresh state and cache dirs, holding the machine's shared test key and
	// Go build cache seed (this test is not about the seed).
	env := append([]string{"XDG_CONFIG_HOME=" + t.TempDir(), "GOBIN=", "GOPROXY=https://proxy.golang.org"}, e2etest.SharedSeedEnv(t)...)
	tm := e2etest.StartSentinel(t, dir, env, "run", "--coder", "demo", "--scenario", scenario, "Add a dependency.")

	var install, proxy *approvals.Journaled
	e2etest.Eventually(t, "the run deciding the install and the Go proxy", func() bool {
		if s := tm.Screen(); strings.Contains(s, "APPROVAL ·") {
			t.Fatalf("a card was offered for what the sandbox would refuse:\n%s", s)
		}
		if ids := e2etest.RunIDs(t, dir); len(ids) > 0 {
			for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, ids[len(ids)-1])) {
				j := j
				switch {
				case !j.Decided:
				case j.Request.Kind == policy.KindShell && strings.HasPrefix(j.Request.Command, "go install"):
					install = &j
				case j.Request.Kind == policy.KindNet && j.Request.Host == "proxy.golang.org":
					proxy = &j
				}
			}
		}
		return install != nil && proxy != nil
	}, tm.Screen)
	for what, j := range map[string]*approvals.Journaled{"go install": install, "the Go proxy": proxy} {
		if j.Decision.Allowed() || j.Decision.By != "sandbox" || !strings.Contains(j.Decision.Reason, "read-only") {
			t.Errorf("%s was decided %+v, want denied by the sandbox as read-only", what, j.Decision)
		}
	}
	if !strings.Contains(install.Decision.Reason, gobin) {
		t.Errorf("the install's reason does not name GOBIN: %q", install.Decision.Reason)
	}
	if !strings.Contains(proxy.Decision.Reason, modcache) {
		t.Errorf("the proxy's reason does not name the module cache: %q", proxy.Decision.Reason)
	}
	tm.WaitFor("the screen saying why and the coder going on", e2etest.Has("go install puts the program in", "went on"))
}
