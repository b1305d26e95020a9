package agents

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
)

// The real Gemini CLI keeps its sessions across in-place runs as it does
// when the person runs it directly (31.7): after `sentinel exec -- gemini
// -p …`, a second exec's `gemini --list-sessions` lists that session and
// `gemini --resume latest` continues it — the model is sent the first
// run's conversation — and the session is in the person's own ~/.gemini
// afterwards, where a direct `gemini --resume` finds it.
func TestExecGeminiResumesTheLastRunsSession(t *testing.T) {
	t.Parallel()
	e2etest.NeedGemini(t)
	dir := e2etest.ScratchRepo(t)
	model, err := fg.Start(fg.Script{
		fg.Reply(fg.Text("The first answer: teal-heron.")),
		fg.Reply(fg.Text("The second answer.")),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer model.Close()
	home := t.TempDir()
	if err := fg.WriteSettings(home); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(model.URL, "http://")
	exec := func(args ...string) e2etest.Result {
		t.Helper()
		res := e2etest.Sentinel(t, dir, model.Env(home), append([]string{"exec", "--plain", "--allow-host", host, "--", "gemini"}, args...)...)
		if res.Code != 0 {
			t.Fatalf("gemini %v: exit %d\nstderr: %s\nstdout:\n%s", args, res.Code, res.Stderr, res.Stdout)
		}
		return res
	}
	exec("-p", "first question about the heron")
	if chats, _ := filepath.Glob(filepath.Join(home, ".gemini", "tmp", "*", "chats", "session-*")); len(chats) != 1 {
		t.Fatalf("the person's ~/.gemini holds %d sessions after the run, want 1: %v", len(chats), chats)
	}
	if res := exec("--list-sessions"); !strings.Contains(res.Stdout, "Available sessions for this project (1)") {
		t.Errorf("--list-sessions in the next run does not list the first run's session:\n%s", res.Stdout)
	}
	exec("--resume", "latest", "-p", "second question")
	var resumed bool
	for _, r := range model.Requests() {
		texts := strings.Join(r.UserTexts(), "\n")
		resumed = resumed || strings.Contains(texts, "second question") && strings.Contains(texts, "first question about the heron")
	}
	if !resumed {
		t.Errorf("the resumed run did not send the first run's conversation to the model (%d requests)", len(model.Requests()))
	}
}
