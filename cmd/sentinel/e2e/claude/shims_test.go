package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/runner"
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

// Shims first on PATH reach the real claude (past the shim dir listed twice
// and a link back to a shim), through sentinel exec: in place, with its
// hooks, journaled in the project.
func TestShimsReachRealClaude(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	realClaude, _ := exec.LookPath("claude")
	dir := e2etest.ScratchRepo(t)
	shims := installShimsIn(t)
	links := t.TempDir()
	if err := os.Symlink(filepath.Join(shims, "claude"), filepath.Join(links, "claude")); err != nil {
		t.Fatal(err)
	}
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Writing the file."), fakemodel.Bash("echo hello from the shim > shim.txt")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	cfgHome := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[sandbox]\nallow_hosts = ["+e2etest.QuoteTOML(e2etest.ModelHost(model))+"]\n")
	path := strings.Join([]string{shims, links, shims + "/", os.Getenv("PATH")}, ":")
	env := append(e2etest.ClaudeEnv(t, model), "PATH="+path, "XDG_CONFIG_HOME="+cfgHome)

	status := e2etest.Sentinel(t, dir, env, "shims", "status", "--dir", shims)
	if !strings.Contains(status.Stdout, "first on PATH: yes") || !strings.Contains(status.Stdout, "runs "+realClaude) || !strings.Contains(status.Stdout, "SENTINEL_SHIM_BYPASS=1") {
		t.Fatalf("shims status:\n%s%s", status.Stdout, status.Stderr)
	}

	res := e2etest.Run(t, "/bin/sh", dir, env, "-c", "claude -p 'write shim.txt'")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shim.txt")); string(b) != "hello from the shim\n" {
		t.Fatalf("shim.txt = %q\n%s", b, res.Stdout)
	}
	id := e2etest.LastRun(t, dir)
	m, err := runner.ReadMeta(&runner.Project{Root: dir, GitDir: filepath.Join(dir, ".git")}, id)
	if err != nil {
		t.Fatal(err)
	}
	if !m.InPlace || m.Coder != "claude" || m.Status != runner.StatusDone {
		t.Fatalf("meta: %s", e2etest.JSONOf(m))
	}
	evs := e2etest.RunEvents(t, dir, id)
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
	js := e2etest.ApprovalsOf(t, evs)
	if len(js) == 0 || !strings.Contains(e2etest.Describe(js), "echo hello from the shim") {
		t.Fatalf("claude's tool call did not go through its hooks:\n%s", e2etest.Describe(js))
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
