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
	"github.com/sentinelhq/sentinel/runner"
)

// Claude Code launched through the shim (`claude` first on PATH is
// Sentinel's), two launches and then the person's own claude: one setup
// for two checks, each a subtest named for what it guards (issue 33: the
// former TestShimsReachRealClaude and
// TestShimClaudeKeepsItsSessionsAndCommandsCannotWriteThem, one Claude
// start fewer, every assertion kept).
//
//   - ShimsReachRealClaude: shims first on PATH reach the real claude (past
//     the shim dir listed twice and a link back to a shim), through
//     sentinel exec: in place, with its hooks, journaled in the project.
//   - ShimClaudeKeepsItsSessionsAndCommandsCannotWriteThem: Claude Code
//     keeps its sessions as when the person runs it directly, and its
//     commands cannot write them: a project script's plants into the run's
//     transcripts are refused, the next shim launch's `claude --continue`
//     resumes the first launch's session, and so does the person's own
//     claude afterwards, outside Sentinel.
func TestShimClaudeSession(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	realClaude, _ := exec.LookPath("claude")
	dir := e2etest.ScriptRepo(t)
	key := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(dir, "-")
	e2etest.WriteFile(t, filepath.Join(dir, "plant.sh"), e2etest.PlantScript("CLAUDE_CONFIG_DIR", `$S/projects/`+key))
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("sh plant.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Writing the file."), fakemodel.Bash("echo hello from the shim > shim.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("First session done.")}},
		fakemodel.Reply(fakemodel.Text("Continued through the shim.")),
	})
	cache, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-cache-")
	if err != nil {
		t.Skipf("no cache dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	shims := installShimsIn(t)
	links := t.TempDir()
	if err := os.Symlink(filepath.Join(shims, "claude"), filepath.Join(links, "claude")); err != nil {
		t.Fatal(err)
	}
	cfgHome := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfgHome, "sentinel", "config.toml"), "[sandbox]\nallow_hosts = ["+e2etest.QuoteTOML(e2etest.ModelHost(model))+"]\n")
	path := strings.Join([]string{shims, links, shims + "/", os.Getenv("PATH")}, ":")
	env := append(e2etest.ClaudeEnv(t, model), "PATH="+path, "XDG_CONFIG_HOME="+cfgHome, "XDG_CACHE_HOME="+cache, "SHELL=/bin/bash")
	home := strings.TrimPrefix(env[0], "HOME=")
	shim := func(t *testing.T, args string) e2etest.Result {
		t.Helper()
		res := e2etest.Run(t, "/bin/sh", dir, env, "-c", "claude "+args)
		if res.Code != 0 {
			t.Fatalf("claude %s through the shim: exit %d\nstderr: %s\nstdout:\n%s", args, res.Code, res.Stderr, res.Stdout)
		}
		return res
	}
	status := e2etest.Sentinel(t, dir, env, "shims", "status", "--dir", shims)
	first := shim(t, "-p 'Plant it.'")

	t.Run("ShimsReachRealClaude", func(t *testing.T) {
		if !strings.Contains(status.Stdout, "first on PATH: yes") || !strings.Contains(status.Stdout, "runs "+realClaude) || !strings.Contains(status.Stdout, "SENTINEL_SHIM_BYPASS=1") {
			t.Fatalf("shims status:\n%s%s", status.Stdout, status.Stderr)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "shim.txt")); string(b) != "hello from the shim\n" {
			t.Fatalf("shim.txt = %q\n%s", b, first.Stdout)
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
	})

	t.Run("ShimClaudeKeepsItsSessionsAndCommandsCannotWriteThem", func(t *testing.T) {
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
		if out := shim(t, "--continue -p 'And then?'"); !strings.Contains(out.Stdout, "Continued through the shim.") {
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
	})
}
