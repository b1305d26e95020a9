package geminicli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hook command under the shells Gemini CLI may run it with: the
// helper's own allow and deny pass through; every way the helper can fail
// is a deny with exit status 2, the one answer Gemini never lets a call
// run on.
func TestHookCommandFailsClosed(t *testing.T) {
	const payload = `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
	allow := `{"decision":"allow","reason":"policy: reads only"}`
	deny := `{"decision":"deny","reason":"policy: it's a pipe into sh"}`
	for _, tc := range []struct {
		name   string
		helper string // the fake helper's script body; "" = no helper at all
		exit   int
		out    string // the exact stdout, or "" for the wrapper's own deny
	}{
		{"allow", "echo '" + allow + "'", 0, allow},
		{"deny", "echo '" + strings.ReplaceAll(deny, "'", `'\''`) + "'; echo denied >&2; exit 2", 2, deny},
		{"killed", "kill -9 $$", 2, ""},
		{"error status, no output", "exit 1", 2, ""},
		{"error status with an allow", "echo '" + allow + "'; exit 1", 2, ""},
		{"garbage", "echo garbage", 2, ""},
		{"nothing", "true", 2, ""},
		{"allow after other output", "echo starting; echo '" + allow + "'", 2, ""},
		{"two answers", "echo '" + allow + "'; echo '" + allow + "'", 2, ""},
		{"deny shape with exit 0", "echo '" + strings.ReplaceAll(deny, "'", `'\''`) + "'", 2, ""},
		{"missing helper", "", 2, ""},
	} {
		for _, sh := range []string{"bash", "sh"} {
			if _, err := exec.LookPath(sh); err != nil {
				continue
			}
			t.Run(tc.name+"/"+sh, func(t *testing.T) {
				dir := t.TempDir()
				helper := filepath.Join(dir, "sentinel helper") // a space: the command must quote it
				seen := filepath.Join(dir, "seen")
				if tc.helper != "" {
					script := "#!/bin/sh\n{ printf '%s\\n' \"$*\" \"$SENTINEL_SOCKET\"; cat; } > '" + seen + "'\n" + tc.helper + "\n"
					if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				socket := filepath.Join(dir, "it's the socket")
				cmd := exec.Command(sh, "-c", HookCommand(helper, socket))
				cmd.Stdin = strings.NewReader(payload)
				out, err := cmd.Output()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != tc.exit {
					t.Errorf("exit %d, want %d; stdout %q", code, tc.exit, out)
				}
				got := strings.TrimSuffix(string(out), "\n")
				if tc.out != "" {
					if got != tc.out {
						t.Errorf("stdout %q, want %q", got, tc.out)
					}
				} else {
					var ans struct{ Decision, Reason string }
					if err := json.Unmarshal(out, &ans); err != nil || ans.Decision != "deny" || !strings.Contains(ans.Reason, "hook failed") {
						t.Errorf("stdout %q is not the wrapper's deny (%v)", out, err)
					}
				}
				if tc.helper == "" {
					return
				}
				b, err := os.ReadFile(seen)
				if err != nil {
					t.Fatal(err)
				}
				if want := "hook gemini\n" + socket + "\n" + payload; string(b) != want {
					t.Errorf("the helper got %q, want its arguments, the socket and the payload %q", b, want)
				}
			})
		}
	}
}

// Sentinel's settings route every tool call to the gate and keep reports
// out of it: a report's failure must never block (AfterAgent's status 2
// would retry the turn).
func TestHooksSettings(t *testing.T) {
	h := Hooks("/opt/sentinel-helper", "/run/s.sock")
	cmd := func(ev string) (string, string) {
		e := h[ev].([]any)[0].(map[string]any)
		hk := e["hooks"].([]any)[0].(map[string]any)
		if hk["timeout"] != HookTimeout || hk["type"] != "command" {
			t.Errorf("%s: %v", ev, hk)
		}
		return e["matcher"].(string), hk["command"].(string)
	}
	if m, c := cmd("BeforeTool"); m != "*" || c != HookCommand("/opt/sentinel-helper", "/run/s.sock") {
		t.Errorf("BeforeTool: matcher %q, command %q", m, c)
	}
	for _, ev := range []string{"AfterTool", "AfterAgent"} {
		if _, c := cmd(ev); strings.Contains(c, "exit 2") || !strings.HasSuffix(c, "/opt/sentinel-helper hook gemini") {
			t.Errorf("%s: command %q", ev, c)
		}
	}
}
