//go:build unix

package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
)

// In place, the commands Gemini CLI starts cannot write its state (the
// run's GEMINI_CLI_HOME, whose .gemini/tmp/<project>/chats hold its
// sessions: the wrapper's domain grants no write there): a project script
// that tries to plant a session is refused every way, nothing of it comes
// back into the person's ~/.gemini, and the session Gemini itself wrote
// does: the person's own `gemini --resume latest` afterwards, outside
// Sentinel, continues it (the model is sent the run's conversation).
func TestExecGeminiCommandsCannotWriteItsChats(t *testing.T) {
	t.Parallel()
	e2etest.NeedGemini(t)
	dir := e2etest.ScriptRepo(t)
	chats := `$(dirname "$(find "$S/.gemini/tmp" -path "*/chats/session-*" | head -n 1)")`
	e2etest.WriteFile(t, filepath.Join(dir, "plant.sh"), e2etest.PlantScript("GEMINI_CLI_HOME", chats))
	model, home := fg.StartWithHome(t, fg.Script{
		fg.Reply(fg.Text("Planting."), fg.ShellCommand("sh plant.sh", "")),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("First session done.")}},
		fg.Reply(fg.Text("Resumed.")),
	})
	// The agent's state must lie outside /tmp (the sandbox's own /tmp is
	// a writable root and would hold it): the cache dir elsewhere.
	cache, err := os.MkdirTemp("/var/tmp", "sentinel-e2e-cache-")
	if err != nil {
		t.Skipf("no cache dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(cache) })
	env := append(model.Env(home), "XDG_CACHE_HOME="+cache, "SHELL=/bin/bash")
	host := strings.TrimPrefix(model.URL, "http://")
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--allow-host", host, "--", "gemini", "-p", "Plant it (the heron question).")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "plant.log"))
	errs, _ := os.ReadFile(filepath.Join(dir, "plant.err"))
	t.Logf("plants:\n%s%s", log, errs)
	for _, how := range []string{"append", "new", "python", "hardlink", "rename", "mv", "swap"} {
		if !strings.Contains(string(log), how+"=refused") {
			t.Errorf("the %s plant was not refused:\n%s\n%s\n%s", how, log, errs, res.Stdout)
		}
	}
	if !strings.Contains(string(errs), "Permission denied") {
		t.Errorf("no refusal read EACCES:\n%s\n%s", log, errs)
	}
	var sessions []string
	filepath.Walk(filepath.Join(home, ".gemini"), func(p string, fi os.FileInfo, _ error) error {
		if fi == nil || fi.IsDir() {
			return nil
		}
		if strings.Contains(filepath.Base(p), "planted") {
			t.Errorf("%s came back into the person's ~/.gemini", p)
		} else if b, _ := os.ReadFile(p); strings.Contains(string(b), "PLANTED") {
			t.Errorf("%s came back with the plant in it", p)
		}
		if strings.HasPrefix(filepath.Base(p), "session-") {
			sessions = append(sessions, p)
		}
		return nil
	})
	if len(sessions) == 0 {
		t.Fatalf("no session came back into %s\n%s", filepath.Join(home, ".gemini"), res.Stdout)
	}
	direct := e2etest.RunProgram(t, "gemini", dir, "", model.Env(home), "--resume", "latest", "-p", "Go on.")
	if direct.Code != 0 {
		t.Fatalf("the direct resume: exit %d\nstderr: %s\nstdout:\n%s", direct.Code, direct.Stderr, direct.Stdout)
	}
	resumed := false
	for _, r := range model.Requests() {
		texts := strings.Join(r.UserTexts(), "\n")
		resumed = resumed || strings.Contains(texts, "Go on.") && strings.Contains(texts, "the heron question")
	}
	if !resumed {
		t.Errorf("the person's direct `gemini --resume latest` did not continue the run's session (%d requests)\n%s", len(model.Requests()), direct.Stderr)
	}
}
