package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// sentinel-helper's hook is the same gate as sentinel's: for every answer
// and every failure (no run, bad input, a closed broker, a mistyped
// command) both print the same thing and exit the same way, so a run that
// points the coder's hooks at the helper denies what sentinel would.
func TestHelperHookAnswersLikeSentinel(t *testing.T) {
	allow := startHookRun(t, hookDecider(approvals.OutcomeAllow, ""))
	deny := startHookRun(t, hookDecider(approvals.OutcomeDeny, "no"))
	closed := startHookRun(t, hookDecider(approvals.OutcomeAllow, ""))
	closed.broker.Close()
	for _, tc := range []struct {
		name, stdin, socket string
		args                []string
		code                int // -1: whatever sentinel's is
	}{
		{"allowed", bashPayload, allow.socket, []string{"hook", "claude"}, 0},
		{"denied", bashPayload, deny.socket, []string{"hook", "claude"}, 2},
		{"codex dialect", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"frobnicate --widgets 3"}}`, deny.socket, []string{"hook", "codex"}, -1},
		{"no run", bashPayload, "", []string{"hook", "claude"}, 2},
		{"garbage", "garbage", allow.socket, []string{"hook", "claude"}, 2},
		{"broker closed", bashPayload, closed.socket, []string{"hook", "claude"}, 2},
		{"no agent", bashPayload, allow.socket, []string{"hook"}, 2},
		{"unknown agent", bashPayload, allow.socket, []string{"hook", "claud"}, 2},
		{"extra word", bashPayload, allow.socket, []string{"hook", "claude", "extra"}, 2},
		{"a flag", bashPayload, allow.socket, []string{"hook", "claude", "--bogus"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var env []string
			if tc.socket != "" {
				env = []string{approvals.EnvSocket + "=" + tc.socket}
			}
			h := runProgram(t, e2etest.HelperBin, "", tc.stdin, env, tc.args...)
			s := runProgram(t, e2etest.Bin, "", tc.stdin, env, tc.args...)
			if h.code != s.code || (tc.code >= 0 && h.code != tc.code) {
				t.Fatalf("exit: helper %d, sentinel %d, want %d (helper stderr %q)", h.code, s.code, tc.code, h.stderr)
			}
			if tc.name != "allowed" && !strings.Contains(h.stdout, "deny") {
				t.Fatalf("the helper's answer is no deny: %q", h.stdout)
			}
			// With a word too many, cobra refuses before sentinel's hook
			// runs, printing nothing on stdout; the helper denies in the
			// agent's format as well.
			cobraFirst := len(tc.args) > 2
			if h.stdout != s.stdout && !cobraFirst {
				t.Fatalf("stdout differs:\nhelper   %q\nsentinel %q", h.stdout, s.stdout)
			}
			if tc.code != 0 && strings.TrimSpace(h.stderr) == "" {
				t.Fatal("the helper's deny says nothing on stderr")
			}
		})
	}
}

// Anything else the helper is asked is refused, never taken as a hook.
func TestHelperRefusesOtherArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"run"}, {"--help"}, {"stamp", "x"}} {
		if r := runProgram(t, e2etest.HelperBin, "", "", nil, args...); r.code != 2 || !strings.Contains(r.stderr, "internal use only") {
			t.Errorf("%v: exit %d stderr %q, want 2 and internal use only", args, r.code, r.stderr)
		}
	}
}

// sentinel doctor says the helper beside it is the one in use.
func TestDoctorNamesTheHelper(t *testing.T) {
	r := runSentinelBin(t, t.TempDir(), "", []string{"HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}, "doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("doctor --json: %v (exit %d, stderr %q)", err, r.code, r.stderr)
	}
	if !rep.Helper.OK || !strings.Contains(rep.Helper.Detail, filepath.Join(filepath.Dir(e2etest.Bin), "sentinel-helper")) {
		t.Fatalf("doctor's helper check = %+v, want the helper beside %s in use", rep.Helper, e2etest.Bin)
	}
}
