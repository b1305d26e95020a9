package geminicli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/policy"
)

// needGemini skips without the real Gemini CLI (fails under CI=true).
func needGemini(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gemini"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gemini is not on PATH; CI must install it: npm install -g @google/gemini-cli@" + MinVersion)
		}
		t.Skip("gemini is not on PATH; install it with: npm install -g @google/gemini-cli@" + MinVersion)
	}
}

// geminiP runs the real `gemini -p` through the adapter, outside any
// sandbox, its hooks answered by helper asking socket, against a fake model
// that asks for one shell command writing out.txt. It returns the
// workspace, the model, and gemini's output.
func geminiP(t *testing.T, helper, socket string, ws string) (*fg.Server, string) {
	t.Helper()
	model, err := fg.Start(fg.Script{
		fg.Reply(fg.Text("Writing."), fg.ShellCommand("echo ran > out.txt", "")),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("Done.")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	home := t.TempDir()
	if err := fg.WriteSettings(home); err != nil {
		t.Fatal(err)
	}
	a := New(Options{Launch: []string{"gemini"}, Args: []string{"-p", "write out.txt"}, Helper: helper})
	// Contained: the workspace is trusted (gemini -p refuses an untrusted
	// one); there is no sandbox here to hide its .gemini/.
	if _, err := a.Prepare(RunPaths{Home: home, StateDir: t.TempDir(), Project: ws, Socket: socket, Contained: true}); err != nil {
		t.Fatal(err)
	}
	argv, err := a.Argv("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a bound on a hang, not a speed check
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = ws
	// No proxy, no real Google credentials, and not CI (gemini-cli reads CI).
	cmd.Env = append(os.Environ(), "HTTP_PROXY=", "HTTPS_PROXY=", "http_proxy=", "https_proxy=", "ALL_PROXY=", "all_proxy=",
		"GOOGLE_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=", "GOOGLE_CLOUD_PROJECT=", "CI=", approvals.EnvSocket+"=")
	cmd.Env = append(append(cmd.Env, model.Env(home)...), a.Env()...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gemini -p: %v\n%s", err, out)
	}
	return model, string(out)
}

// shellResult is what the model was told of its one shell call.
func shellResult(t *testing.T, model *fg.Server, out string) fg.FunctionResponse {
	t.Helper()
	for _, r := range model.Requests() {
		if f, ok := r.FunctionResponse("run_shell_command"); ok {
			return f
		}
	}
	t.Fatalf("the shell call's result never reached the model\n%s", out)
	return fg.FunctionResponse{}
}

// The real Gemini CLI under the adapter's hooks: a broker that allows lets
// the command run; when the hook cannot get an answer — no broker, a
// helper killed, one printing garbage — the command does not run and the
// model is told it was blocked, where Gemini's own handling of a failed
// hook would have run it.
func TestRealGeminiHookFailsClosed(t *testing.T) {
	needGemini(t)
	sentinel, err := testbin.Sentinel()
	if err != nil {
		t.Fatal(err)
	}
	script := func(body string) string {
		p := filepath.Join(t.TempDir(), "helper")
		if err := os.WriteFile(p, []byte("#!/bin/sh\ncat >/dev/null\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sockDir, err := os.MkdirTemp("", "gx") // a unix socket path must be short
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })

	t.Run("broker allows", func(t *testing.T) {
		ws := t.TempDir()
		sock := filepath.Join(sockDir, "b.sock")
		eng, err := policy.Load()
		if err != nil {
			t.Fatal(err)
		}
		b, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: sock, RunID: "e2e", Policy: eng,
			Context: policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir(), Sandboxed: true}, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		b.Start()
		defer b.Close()
		model, out := geminiP(t, sentinel, sock, ws)
		if f := shellResult(t, model, out); f.IsError() {
			t.Fatalf("the allowed command failed: %s\n%s", f.Output(), out)
		}
		if got, _ := os.ReadFile(filepath.Join(ws, "out.txt")); string(got) != "ran\n" {
			t.Fatalf("out.txt = %q: the allowed command did not run\n%s", got, out)
		}
	})
	for _, tc := range []struct{ name, helper, why string }{
		{"no broker", sentinel, "cannot reach the Sentinel broker"},
		{"helper killed", script("kill -9 $$"), "hook failed (status 137)"},
		{"helper prints garbage", script("echo garbage"), "hook failed (status 0)"},
		{"helper exits 1", script(`echo '{"decision":"allow","reason":""}'; exit 1`), "hook failed (status 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			model, out := geminiP(t, tc.helper, filepath.Join(sockDir, "none.sock"), ws)
			f := shellResult(t, model, out)
			if !f.IsError() || !strings.Contains(f.Output(), "Tool execution blocked") || !strings.Contains(f.Output(), tc.why) {
				t.Errorf("the model was told %q, want the call blocked because %s", f.Output(), tc.why)
			}
			if _, err := os.Stat(filepath.Join(ws, "out.txt")); !os.IsNotExist(err) {
				t.Errorf("out.txt exists (%v): the command ran without an answer", err)
			}
		})
	}
}
