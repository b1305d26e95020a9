package opencode

import (
	"context"
	"encoding/json"
	"fmt"
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
// The fake model asks for each of commands in turn, one bash call after
// the result of the one before, then ends. It returns the project and the
// tool results the model was sent, one per command, in order.
func runWithHook(t *testing.T, hook string, decide time.Duration, commands ...string) (string, []fakemodel.ToolResult) {
	t.Helper()
	bin := needOpencode(t)
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Skip("no bwrap: it holds the run's config dir read-only here, as Sentinel's sandbox does")
	}
	var script fakemodel.Script
	for i, c := range commands {
		turn := fakemodel.Reply(fakemodel.ToolUse("bash", map[string]any{"command": c, "description": "d"}))
		if i > 0 {
			turn.When = fakemodel.AfterToolResult
		}
		script = append(script, turn)
	}
	script = append(script, fakemodel.Turn{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Stopping.")}},
		fakemodel.Reply(fakemodel.Text("Nothing more.")))
	model, err := fakemodel.Start(script)
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
	// A temp dir of its own, removed after the test (the bwrap above shares
	// the host's /tmp): opencode, a Bun program, leaves a 5.5 MB native
	// library (.<hex>-00000000.so) in its temp dir at every start.
	cmd.Env = append(cmd.Env, "PWD="+project, "XDG_CONFIG_HOME=", "XDG_DATA_HOME=", "XDG_STATE_HOME=", "XDG_CACHE_HOME=", "TMPDIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("opencode run: %v\n%s", err, out)
	}
	var results []fakemodel.ToolResult
	for _, r := range model.Requests() {
		results = append(results, r.LastToolResults()...)
	}
	if len(results) != len(commands) {
		t.Fatalf("the model got %d tool results, want %d\n%s", len(results), len(commands), out)
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
//
// An opencode start costs seconds of CPU (two minutes at load 20), so the
// cases a hook answers share one opencode: the model asks for one call per
// case, each writing its own file, and the hook answers each as its case
// says (a new hook process for every call, as always). The hook that does
// not start and the one that never answers need a plugin of their own
// (another hook, another wait): three opencodes, side by side.
func TestPluginFailsClosed(t *testing.T) {
	type pluginCase struct {
		name string
		body string // what the hook does for this case's call
		ran  bool
		want string
	}
	answered := []pluginCase{
		{"allow", `echo '{"decision":"allow","reason":"ok"}'`, true, ""},
		{"deny", `echo '{"decision":"deny","reason":"not this one"}'; exit 2`, false, "Sentinel denied this bash call: not this one"},
		{"garbage", `echo 'allow'`, false, "without an answer it could read"},
		{"nothing", `:`, false, "exited 0 without an answer it could read"},
		{"allow with a failing exit", `echo '{"decision":"allow"}'; exit 1`, false, "exited 1 without an answer it could read"},
		{"allow as a list", `echo '[{"decision":"allow"}]'`, false, "without an answer it could read"},
		{"killed", `kill -9 $$`, false, "was killed by SIGKILL"},
		{"allow after the others", `echo '{"decision":"allow","reason":"ok"}'`, true, ""},
	}
	check := func(t *testing.T, project string, i int, tc pluginCase, res fakemodel.ToolResult) {
		_, err := os.Stat(filepath.Join(project, fmt.Sprintf("ran-%d.txt", i)))
		if ran := err == nil; ran != tc.ran {
			t.Fatalf("the command ran: %v, want %v; tool result %+v", ran, tc.ran, res)
		}
		if tc.ran {
			if res.IsError {
				t.Errorf("an allowed call failed: %+v", res)
			}
			return
		}
		if !res.IsError || !strings.Contains(res.Content, tc.want) {
			t.Errorf("tool result %+v, want an error with %q", res, tc.want)
		}
	}
	t.Run("answered", func(t *testing.T) {
		t.Parallel()
		hook := "in=$(cat)\ncase \"$in\" in\n"
		var commands []string
		for i, tc := range answered {
			hook += fmt.Sprintf("*ran-%d.txt*) %s; exit ;;\n", i, tc.body)
			commands = append(commands, fmt.Sprintf("echo ran > ran-%d.txt", i))
		}
		hook += "esac\necho 'no case for this call' >&2; exit 3"
		project, results := runWithHook(t, hookScript(t, hook), time.Minute, commands...)
		for i, tc := range answered {
			t.Run(tc.name, func(t *testing.T) { check(t, project, i, tc, results[i]) })
		}
	})
	for _, tc := range []struct {
		pluginCase
		hook   func(t *testing.T) string
		decide time.Duration
	}{
		{pluginCase{"hook missing", "", false, "Sentinel could not decide on this bash call, so it is blocked"}, func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "no-such-hook")
		}, time.Minute},
		{pluginCase{"no answer in time", "", false, "no answer within 2 s"}, func(t *testing.T) string {
			return hookScript(t, `exec sleep 600`)
		}, 2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			project, results := runWithHook(t, tc.hook(t), tc.decide, "echo ran > ran-0.txt")
			check(t, project, 0, tc.pluginCase, results[0])
		})
	}
}
