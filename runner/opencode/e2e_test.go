package opencode

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// needOpencode skips without the real opencode CLI (fails under CI=true).
func needOpencode(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("opencode")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("opencode is not on PATH; .ci/run installs opencode-ai")
		}
		t.Skip("opencode is not installed (npm install -g opencode-ai)")
	}
	return p
}

// runWithHook runs the real `opencode run` in a fresh project with the run
// home Prepare makes, the plugin's hook being hook and its wait decide.
// The fake model asks for one bash command that writes ran.txt, then ends.
// It returns the project and the tool results the model was sent.
func runWithHook(t *testing.T, hook string, decide time.Duration) (string, []fakemodel.ToolResult) {
	t.Helper()
	bin := needOpencode(t)
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("no bwrap: it holds the run's config dir read-only here, as Sentinel's sandbox does")
	}
	model, err := fakemodel.Start(fakemodel.Script{
		fakemodel.Reply(fakemodel.ToolUse("bash", map[string]any{"command": "echo ran > ran.txt", "description": "d"})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Stopping.")}},
		fakemodel.Reply(fakemodel.Text("Nothing more.")),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	xdg, project := t.TempDir(), t.TempDir()
	cfg, _ := json.Marshal(map[string]any{
		"model": "fake/fake-model", "small_model": "fake/fake-model", "share": "disabled",
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/anthropic", "name": "Fake",
			"options": map[string]any{"baseURL": model.URL + "/v1", "apiKey": "sk-test"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "Fake model", "tool_call": true}},
		}},
	})
	write(t, filepath.Join(xdg, "opencode", "opencode.json"), string(cfg))
	home := t.TempDir()
	write(t, filepath.Join(home, ".cache", "opencode", "models.json"), "{}\n") // no catalog fetch
	a := New(Options{Sentinel: hook, Launch: []string{bin}, Args: []string{"run", "write ran.txt"}, DecideWait: decide})
	env := map[string]string{"XDG_CONFIG_HOME": xdg}
	if _, err := a.Prepare(RunPaths{Home: home, Getenv: func(k string) string { return env[k] }, StateDir: t.TempDir(), Project: project}); err != nil {
		t.Fatal(err)
	}
	argv, _ := a.Argv("")
	// The config dir read-only, as the sandbox holds it (else opencode
	// installs its plugin package into it from the npm registry).
	cfgDir := filepath.Join(a.Home(), configDir)
	argv = append([]string{bwrap, "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--ro-bind", cfgDir, cfgDir, "--chdir", project, "--"}, argv...)
	// A bound on a hung opencode: one start took two minutes at load 20.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), a.Env()...)
	cmd.Env = append(cmd.Env, "PWD="+project, "XDG_CONFIG_HOME=", "XDG_DATA_HOME=", "XDG_STATE_HOME=", "XDG_CACHE_HOME=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("opencode run: %v\n%s", err, out)
	}
	var results []fakemodel.ToolResult
	for _, r := range model.Requests() {
		results = append(results, r.LastToolResults()...)
	}
	if len(results) != 1 {
		t.Fatalf("the model got %d tool results, want 1\n%s", len(results), out)
	}
	return project, results
}

// hookScript is a hook program that does what body says.
func hookScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hook")
	write(t, p, "#!/bin/sh\n"+body+"\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// Sentinel's plugin, in the real opencode, lets a call run only on the
// hook's allow; any other outcome of the hook — it does not start, gives
// no answer in time, answers what it cannot read, or contradicts its own
// exit status — blocks the call, and the model hears why.
func TestPluginFailsClosed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hook   func(t *testing.T) string
		decide time.Duration
		ran    bool
		want   string
	}{
		{"allow", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null; echo '{"decision":"allow","reason":"ok"}'`)
		}, time.Minute, true, ""},
		{"deny", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null; echo '{"decision":"deny","reason":"not this one"}'; exit 2`)
		}, time.Minute, false, "Sentinel denied this bash call: not this one"},
		{"hook missing", func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "no-such-hook")
		}, time.Minute, false, "Sentinel could not decide on this bash call, so it is blocked"},
		{"no answer in time", func(t *testing.T) string {
			return hookScript(t, `exec sleep 600`)
		}, 2 * time.Second, false, "no answer within 2 s"},
		{"garbage", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null; echo 'allow'`)
		}, time.Minute, false, "without an answer it could read"},
		{"nothing", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null`)
		}, time.Minute, false, "exited 0 without an answer it could read"},
		{"allow with a failing exit", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null; echo '{"decision":"allow"}'; exit 1`)
		}, time.Minute, false, "exited 1 without an answer it could read"},
		{"allow as a list", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null; echo '[{"decision":"allow"}]'`)
		}, time.Minute, false, "without an answer it could read"},
		{"killed", func(t *testing.T) string {
			return hookScript(t, `cat >/dev/null; kill -9 $$`)
		}, time.Minute, false, "was killed by SIGKILL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each case is its own opencode, home, project and model
			// server: they run side by side (-parallel bounds how many).
			t.Parallel()
			project, results := runWithHook(t, tc.hook(t), tc.decide)
			_, err := os.Stat(filepath.Join(project, "ran.txt"))
			if ran := err == nil; ran != tc.ran {
				t.Fatalf("the command ran: %v, want %v; tool result %+v", ran, tc.ran, results[0])
			}
			if tc.ran {
				if results[0].IsError {
					t.Errorf("an allowed call failed: %+v", results[0])
				}
				return
			}
			if !results[0].IsError || !strings.Contains(results[0].Content, tc.want) {
				t.Errorf("tool result %+v, want an error with %q", results[0], tc.want)
			}
		})
	}
}
