package aider_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/sandbox"
)

// fakeAider stands in for the real CLI, which is not installed here (it
// ships on PyPI only): it does what `aider --message TASK` does against an
// OpenAI-compatible server — asks the model at $OPENAI_API_BASE with the
// task, writes the answer into a file of the workspace, and appends to the
// chat history file it was given.
const fakeAider = `#!/usr/bin/env python3
import json, os, sys, urllib.request
args = sys.argv[1:]
def flag(name):
    return args[args.index(name) + 1] if name in args else None
msg = flag("--message") or ""
body = json.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": msg}]}).encode()
req = urllib.request.Request(os.environ["OPENAI_API_BASE"] + "/chat/completions", data=body,
    headers={"Content-Type": "application/json", "Authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")})
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
reply = json.load(opener.open(req, timeout=30))["choices"][0]["message"]["content"]
with open("hello.txt", "w") as f:
    f.write(reply + "\n")
if flag("--chat-history-file"):
    with open(flag("--chat-history-file"), "a") as f:
        f.write(msg + "\n")
print("Applied edit to hello.txt")
`

// `sentinel run --coder aider` reaches Aider through the registry alone:
// the task goes to the model at OPENAI_API_BASE (a fake on 127.0.0.1), the
// file it writes is the run's patch, and nothing of Aider's own (history,
// .gitignore) is.
func TestRunCoderAiderAgainstAFakeModel(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is needed for the fake aider")
	}
	srv, err := fakeopenai.Start(fakeopenai.Reply{Content: "hello from the model"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "aider"), []byte(fakeAider), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("OPENAI_API_BASE", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())

	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init", "--allow-empty"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	p, err := runner.FindProject(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.Start(context.Background(), runner.Options{Project: p, Task: "say hello in hello.txt",
		Coder:   runner.CoderOptions{Name: "aider"},
		Sandbox: runner.SandboxOptions{Mode: sandbox.ModeOff},
		Landing: runner.LandingOptions{Apply: runner.ApplyNone}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.Done():
	case <-time.After(2 * time.Minute): // a hang bound, not a timing
		r.Stop()
		t.Fatal("the aider run did not end")
	}
	res := r.Wait()
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].UserText() != "say hello in hello.txt" {
		t.Fatalf("the model got %d requests (want the task once); result %+v", len(reqs), res)
	}
	patch, err := os.ReadFile(filepath.Join(r.Dir(), "patch.diff"))
	if err != nil {
		t.Fatalf("no patch: %v (result %+v)", err, res)
	}
	if !strings.Contains(string(patch), "+hello from the model") {
		t.Errorf("the patch lacks the model's answer:\n%s", patch)
	}
	for _, own := range []string{".aider", ".gitignore", "chat.history"} {
		if strings.Contains(string(patch), own) {
			t.Errorf("the patch holds Aider's own %s:\n%s", own, patch)
		}
	}
}
