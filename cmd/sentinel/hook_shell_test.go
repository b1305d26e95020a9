package main

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
)

// TestHookJudgesAWorkspaceBashAsItself drives `sentinel hook codex` with an
// argv whose program is named bash but is not the shell (./bash, which the
// coder can write). Its -c argument once stood in for it, so "echo hi" was
// allowed by the policy and ./bash ran unasked; now the policy's reader
// decides what is the shell, and the person (here: a deny) is asked.
func TestHookJudgesAWorkspaceBashAsItself(t *testing.T) {
	for _, tc := range []struct {
		argv   string
		exit   int
		stdout string
	}{
		{`["./bash","-c","echo hi"]`, 2, `"permissionDecision":"deny"`},
		{`["/tmp/x/bash","-lc","echo hi"]`, 2, `"permissionDecision":"deny"`},
		// The shell: its script is judged (echo: allowed). Codex's allow is silence.
		{`["/bin/bash","-lc","echo hi"]`, 0, ``},
	} {
		run := startHookRun(t, hookDecider(approvals.OutcomeDeny, "no"))
		payload := `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"shell","tool_input":{"command":` + tc.argv + `}}`
		r := runSentinelBin(t, "", payload, []string{approvals.EnvSocket + "=" + run.socket}, "hook", "codex")
		if r.code != tc.exit || !strings.Contains(r.stdout, tc.stdout) || (tc.stdout == "") != (r.stdout == "") {
			t.Errorf("%s: exit %d stdout %q stderr %q; want exit %d and %s", tc.argv, r.code, r.stdout, r.stderr, tc.exit, tc.stdout)
		}
	}
}
