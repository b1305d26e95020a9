//go:build unix

package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// Launched through the shim (`claude` first on PATH is Sentinel's), Claude
// Code keeps its sessions as when the person runs it directly, and its
// commands cannot write them: a project script's plants into the run's
// transcripts are refused, the next shim launch's `claude --continue`
// resumes the first launch's session, and so does the person's own
// claude afterwards, outside Sentinel.
func TestShimClaudeKeepsItsSessionsAndCommandsCannotWriteThem(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	key := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(dir, "-")
	e2etest.WriteFile(t, filepath.Join(dir, "plant.sh"), e2etest.PlantScript("CLAUDE_CONFIG_DIR", `$S/projects/`+key))
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("sh plant.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("First session done.")}},
		fakemodel.Reply(fakemodel.Text("Continued through the shim.")),
	})
	cache, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-cache-")
	if err != nil {
		t.Skipf("no cache dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	shims := installShimsIn(t)
	cfgHome := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[sandbox]\nallow_hosts = ["+e2etest.QuoteTOML(e2etest.ModelHost(model))+"]\n")
	env := append(e2etest.ClaudeEnv(t, model), "PATH="+shims+":"+os.Getenv("PATH"), "XDG_CONFIG_HOME="+cfgHome, "XDG_CACHE_HOME="+cache, "SHELL=/bin/bash")
	home := strings.TrimPrefix(env[0], "HOME=")
	shim := func(args string) e2etest.Result {
		t.Helper()
		res := e2etest.Run(t, "/bin/sh", dir, env, "-c", "claude "+args)
		if res.Code != 0 {
			t.Fatalf("claude %s through the shim: exit %d\nstderr: %s\nstdout:\n%s", args, res.Code, res.Stderr, res.Stdout)
		}
		return res
	}
	first := shim("-p 'Plant it.'")
	log, _ := os.ReadFile(filepath.Join(dir, "plant.log"))
	errs, _ := os.ReadFile(filepath.Join(dir, "plant.err"))
	for _, how := range []string{"append", "new", "python", "hardlink", "rename", "mv", "swap"} {
		if !strings.Contains(string(log), how+"=refused") {
			t.Errorf("the %s plant was not refused:\n%s\n%s\n%s", how, log, errs, first.Stdout)
		}
	}
	filepath.Walk(filepath.Join(home, ".claude"), func(p string, fi os.FileInfo, _ error) error {
		if fi == nil || fi.IsDir() {
			return nil
		}
		if b, _ := os.ReadFile(p); strings.Contains(filepath.Base(p), "planted") || strings.Contains(string(b), "PLANTED\n") || strings.Contains(string(b), `"content":"PLANTED"`) {
			t.Errorf("%s came back into the person's ~/.claude with the plant", p)
		}
		return nil
	})
	if out := shim("--continue -p 'And then?'"); !strings.Contains(out.Stdout, "Continued through the shim.") {
		t.Errorf("the second shim launch did not answer:\n%s", out.Stdout)
	}
	reqs := model.Requests()
	if len(reqs) == 0 || !reqs[len(reqs)-1].Contains("And then?") || !reqs[len(reqs)-1].Contains("First session done.") {
		t.Errorf("claude --continue through the shim did not resume the first launch's session (%d requests)", len(reqs))
	}
	again := e2etest.StartModel(t, fakemodel.Script{fakemodel.Reply(fakemodel.Text("Continued directly."))})
	cmd := exec.Command("claude", "--continue", "-p", "And directly?")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), e2etest.ClaudeEnv(t, again)...), "HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Continued directly.") {
		t.Fatalf("claude --continue directly: %v\n%s", err, out)
	}
	reqs = again.Requests()
	if len(reqs) == 0 || !reqs[len(reqs)-1].Contains("And then?") || !reqs[len(reqs)-1].Contains("Plant it.") {
		t.Errorf("the person's direct claude --continue did not resume the shim launches' session (%d requests)", len(reqs))
	}
}
