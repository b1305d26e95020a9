package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/runner"
)

// installShims runs sentinel shims install --dir into a fresh directory.
func installShimsIn(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "shims")
	res := sentinel(t, t.TempDir(), nil, "shims", "install", "--dir", dir)
	if res.code != 0 || !strings.Contains(res.stdout, "export PATH='"+dir+"':$PATH") {
		t.Fatalf("shims install: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	return dir
}

// Shims first on PATH reach the real claude (past the shim dir listed twice
// and a link back to a shim), through sentinel exec: in place, with its
// hooks, journaled in the project.
func TestShimsReachRealClaude(t *testing.T) {
	t.Parallel()
	needClaude(t)
	realClaude, _ := exec.LookPath("claude")
	dir := scratchRepo(t)
	shims := installShimsIn(t)
	links := t.TempDir()
	if err := os.Symlink(filepath.Join(shims, "claude"), filepath.Join(links, "claude")); err != nil {
		t.Fatal(err)
	}
	model := startModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Writing the file."), fakemodel.Bash("echo hello from the shim > shim.txt")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	cfgHome := t.TempDir()
	writeFile(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[sandbox]\nallow_hosts = ["+quoteTOML(modelHost(model))+"]\n")
	path := strings.Join([]string{shims, links, shims + "/", os.Getenv("PATH")}, ":")
	env := append(claudeEnv(t, model), "PATH="+path, "XDG_CONFIG_HOME="+cfgHome)

	status := sentinel(t, dir, env, "shims", "status", "--dir", shims)
	if !strings.Contains(status.stdout, "first on PATH: yes") || !strings.Contains(status.stdout, "runs "+realClaude) || !strings.Contains(status.stdout, "SENTINEL_SHIM_BYPASS=1") {
		t.Fatalf("shims status:\n%s%s", status.stdout, status.stderr)
	}

	res := runBin(t, "/bin/sh", dir, env, "-c", "claude -p 'write shim.txt'")
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.code, res.stderr, res.stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shim.txt")); string(b) != "hello from the shim\n" {
		t.Fatalf("shim.txt = %q\n%s", b, res.stdout)
	}
	id := lastRun(t, dir)
	m, err := runner.ReadMeta(&runner.Project{Root: dir, GitDir: filepath.Join(dir, ".git")}, id)
	if err != nil {
		t.Fatal(err)
	}
	if !m.InPlace || m.Coder != "claude" || m.Status != runner.StatusDone {
		t.Fatalf("meta: %s", jsonOf(m))
	}
	evs := runEvents(t, dir, id)
	var argv0 string
	for _, e := range evs {
		if e.Kind == runner.KindCoderStart {
			var d struct {
				Argv []string `json:"argv"`
			}
			_ = e.Decode(&d)
			if len(d.Argv) > 0 {
				argv0 = d.Argv[0]
			}
		}
	}
	if argv0 != realClaude {
		t.Fatalf("the coder started as %q, want the real claude %s", argv0, realClaude)
	}
	js := approvalsOf(t, evs)
	if len(js) == 0 || !strings.Contains(describe(js), "echo hello from the shim") {
		t.Fatalf("claude's tool call did not go through its hooks:\n%s", describe(js))
	}
}

// A shim where the sandbox cannot be enforced (here: inside another
// sandbox, which allows no new namespaces) refuses and never runs the
// program bare; the documented bypass runs it bare, says so, and leaves the
// variable in its environment.
func TestShimRefusesWithoutSandbox(t *testing.T) {
	t.Parallel()
	shims := installShimsIn(t)
	bin := t.TempDir()
	writeFile(t, filepath.Join(bin, "aider"), "#!/bin/sh\necho \"REAL-AIDER bypass=$SENTINEL_SHIM_BYPASS\"\n")
	if err := os.Chmod(filepath.Join(bin, "aider"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := shims + ":" + bin + ":/usr/bin:/bin"
	ws := t.TempDir()
	res := sentinel(t, ws, nil, "sandbox", "run", "--workspace", ws, "--read", shims, "--read", bin, "--read", filepath.Dir(sentinelBin),
		"--", "/bin/sh", "-c", "PATH="+path+"; aider hi")
	if res.code == 0 || strings.Contains(res.stdout, "REAL-AIDER") || !strings.Contains(res.stderr, "refusing to run "+filepath.Join(bin, "aider")) ||
		!strings.Contains(res.stderr, "cannot enforce its sandbox") {
		t.Fatalf("a shim without a sandbox: exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
	}

	bypass := runBin(t, "/bin/sh", ws, []string{"PATH=" + path, "SENTINEL_SHIM_BYPASS=1"}, "-c", "aider hi")
	if bypass.code != 0 || !strings.Contains(bypass.stdout, "REAL-AIDER bypass=1") || !strings.Contains(bypass.stderr, "warning: SENTINEL_SHIM_BYPASS=1: running") {
		t.Fatalf("bypass: exit %d\nstdout: %s\nstderr: %s", bypass.code, bypass.stdout, bypass.stderr)
	}

	un := sentinel(t, ws, nil, "shims", "uninstall", "--dir", shims)
	if un.code != 0 {
		t.Fatalf("uninstall: %d %s", un.code, un.stderr)
	}
	if _, err := os.Stat(filepath.Join(shims, "aider")); err == nil {
		t.Fatal("uninstall left the aider shim")
	}
}
