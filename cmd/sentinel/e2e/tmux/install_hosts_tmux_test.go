package tmux

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/policy"
)

// installScenario updates a named package once approved (installing what
// the manifest names, or adding a package by its plain name, is allowed in
// the sandbox now; updating one past the lockfile still asks).
const installScenario = `
name = "install"

[[steps]]
id = "install"
shell = "npm update --no-audit --no-fund left-pad"

[[steps]]
say = "installed"
`

// TestInstallCardNamesItsHostsAndOneApprovalCoversThem: under tmux, the
// demo coder's npm update gets a card naming the registry the project's
// .npmrc configures; approved with h, npm's own connection to that
// registry through the sandbox's proxy is let through by the run's grant
// (journaled, decided by a template, never a second card).
func TestInstallCardNamesItsHostsAndOneApprovalCoversThem(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	dir := e2etest.ScratchRepo(t)
	// The registry host resolves nowhere: the test is about who decides
	// the proxy's ask, not about the download (a loopback registry is an
	// internal address the proxy never opens on a run-time approval).
	e2etest.WriteFile(t, filepath.Join(dir, ".npmrc"), "registry=http://registry.fake.test:4873/\n")
	e2etest.WriteFile(t, filepath.Join(dir, "package.json"), `{"name":"x","version":"1.0.0","dependencies":{"left-pad":"1.3.0"}}`+"\n")
	e2etest.Git(t, dir, "add", "-A")
	e2etest.Git(t, dir, "commit", "-qm", "npm project")
	scenario := filepath.Join(t.TempDir(), "install.toml")
	e2etest.WriteFile(t, scenario, installScenario)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	tm := e2etest.StartSentinel(t, dir, env, "run", "--coder", "demo", "--scenario", scenario, "Install the dependencies.")
	tm.WaitArmed("the install's card naming its registry", e2etest.Has("command  npm update", "needs", "registry.fake.test:4873", "[h]"))
	tm.PressUntil("h", "the install card answered", func(s string) bool { return !strings.Contains(s, "command  npm update") })

	// Wait for the proxy's ask about the registry to be decided.
	var netBy string
	e2etest.Eventually(t, "the proxy asking about registry.fake.test", func() bool {
		ids := e2etest.RunIDs(t, dir)
		if len(ids) > 0 {
			for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, ids[len(ids)-1])) {
				if j.Request.Kind == policy.KindNet && j.Request.Host == "registry.fake.test" && j.Decided {
					netBy = j.Decision.By
				}
			}
		}
		if strings.Contains(tm.Screen(), "APPROVAL · net") {
			t.Fatalf("a second card for the registry:\n%s", tm.Screen())
		}
		return netBy != ""
	}, tm.Screen)
	if !strings.HasPrefix(netBy, "template:") {
		t.Fatalf("the proxy's ask about the registry was decided by %q, want the run's grant", netBy)
	}
	var shell approvals.Decision
	for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir))) {
		if j.Request.Kind == policy.KindShell && strings.HasPrefix(j.Request.Command, "npm update") {
			shell = j.Decision
		}
	}
	if strings.Join(shell.Hosts, ",") != "registry.fake.test:4873" || shell.By != "person" {
		t.Fatalf("the install's decision = %+v, want the person's approval with its host", shell)
	}
}
