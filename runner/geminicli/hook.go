package geminicli

import (
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/geminicli/geminihook"
)

// HookTimeout is Gemini CLI's timeout for Sentinel's hooks, in
// milliseconds (its unit). Gemini lets a timed-out hook's call run, so it is
// above the helper's own wait (hookclient: 9 min 30 s unless
// SENTINEL_HOOK_TIMEOUT says otherwise), which denies first.
const HookTimeout = 600_000

// gateEvent is the event that decides; reportEvents only journal (a report
// never blocks: its failure is a warning, and exit status 2 after a turn
// would make Gemini retry it).
const gateEvent = "BeforeTool"

var reportEvents = []string{"AfterTool", "AfterAgent"}

// failedAnswer is the wrapper's own deny: the helper did not answer. It
// holds no single quote (the wrapper quotes it with them).
const failedAnswer = `{"decision":"deny","reason":"the Sentinel approval hook failed (status %s), so this call is denied: nothing runs without an answer"}`

// HookCommand is the command Gemini CLI runs (through bash -c) for each
// BeforeTool call: helper's `hook gemini` told the run's socket, its answer
// passed on only when it is the helper's own one-line allow (exit 0) or
// deny (exit 2); anything else — a crash, a helper that is missing or
// killed, an error status, garbage or several lines on stdout — is a deny
// with exit 2, because Gemini would let the call run on any of those.
func HookCommand(helper, socket string) string {
	call := "SENTINEL_SOCKET=" + agentutil.ShellQuote(socket) + " " + agentutil.ShellQuote(helper) + " hook " + geminihook.HookName
	deny := strings.Replace(failedAnswer, "%s", `'"$rc"'`, 1)
	return `out=$(` + call + `); rc=$?; ` +
		`case $out in *'` + "\n" + `'*) rc="$rc, several lines"; out=;; esac; ` +
		`case $rc:$out in '0:{"decision":"allow",'*'}') printf '%s\n' "$out"; exit 0;; ` +
		`'2:{"decision":"deny",'*'}') printf '%s\n' "$out"; exit 2;; esac; ` +
		`printf '%s\n' '` + deny + `'; exit 2`
}

// reportCommand is the command for an event that only journals.
func reportCommand(helper, socket string) string {
	return "SENTINEL_SOCKET=" + agentutil.ShellQuote(socket) + " " + agentutil.ShellQuote(helper) + " hook " + geminihook.HookName
}

// Hooks is the "hooks" settings section: the gate on every tool call
// (matcher "*": built-in and MCP tools alike) and the reports.
func Hooks(helper, socket string) map[string]any {
	entry := func(matcher, command string) []any {
		return []any{map[string]any{"matcher": matcher, "hooks": []any{map[string]any{
			"name": "sentinel", "type": "command", "command": command, "timeout": HookTimeout}}}}
	}
	h := map[string]any{gateEvent: entry("*", HookCommand(helper, socket))}
	for _, ev := range reportEvents {
		m := ""
		if ev == "AfterTool" {
			m = "*"
		}
		h[ev] = entry(m, reportCommand(helper, socket))
	}
	return h
}
