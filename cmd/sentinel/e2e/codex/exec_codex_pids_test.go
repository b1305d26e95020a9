//go:build linux

package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
)

// pidsFiller fills the sandbox's pids cgroup with subshells (a fork, no
// exec: each waits on fd 9, a fifo no one writes), keeps it full (a slot
// that frees is taken again), and frees it all (kill 0: its own process
// group, setsid) the moment pids.events counts the agent's next hook's
// start refused, as a coder would. Only builtins run once it is full but for its refills.
// Once armed (the test makes a file named arm when the model has sent the
// asked call) it frees everything at the next start refused (the hook's).
const pidsFiller = `cg=$(sed -n 's/^[0-9]*:pids://p' /proc/self/cgroup); d=/sys/fs/cgroup/pids$cg
[ -r "$d/pids.events" ] || d=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
rm -f fill.fifo arm; mkfifo fill.fifo; exec 9<>fill.fifo
read -r max < "$d/pids.max"; read -r cur < "$d/pids.current"
for ((i = cur; i < max; i++)); do { read -r -u 9 _; } & done
echo full > fill.log
armed=
while :; do
  read -r _ k < "$d/pids.events"
  if [ -z "$armed" ] && [ -e arm ]; then armed=$k; fi
  if [ -n "$armed" ] && ((k > armed)); then kill -9 0; fi
  read -r cur < "$d/pids.current"
  if ((cur < max)); then { read -r -u 9 _; } & fi
  [ -n "$armed" ] || read -r -t 0.002 -u 9 _
done
`

// A command that fills the sandbox's pids limit and frees it once the
// agent's next hook start was refused (a coder times that by pids.events)
// does not get the asked call run without its card. What was seen on
// Codex 0.171 (19 Dec 7 runs, root, bwrap, without shellscope's pids
// check): the asked call's hook shell got a pid but the wrapper (Go) could
// not make a thread and died with exit 2, which Codex takes as a block
// ("Command blocked by PreToolUse hook"); a hook whose start itself failed
// showed "Hook failed: Resource temporarily unavailable (os error 11)" —
// and twice that was the asked call's PreToolUse hook: no card, and Codex
// went on to start the call itself ("exec_command failed: CreateProcess …
// os error 11", "Exited (status -1) eval …"), stopped only because the
// filler had not freed its pids yet. So the hole is real; this filler
// (2 ms polls, kill 0) never won that race, so the test did not see a
// file written. shellscope's check (no agent-started shell runs after the
// limit refused a start) is what refuses the call's shell when a coder
// does win it, tested in internal/shellscope. The premise not met (the
// card came up): skipped.
func TestExecCodexPidsFillerCannotSkipTheHook(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "fill.sh"), []byte(pidsFiller), 0o644); err != nil {
		t.Fatal(err)
	}
	const filler = `setsid bash fill.sh >/dev/null 2>fill.err </dev/null & until [ -s fill.log ]; do sleep 0.1; done`
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		// Codex sends a command's output on after yield_time_ms even when it
		// has not ended: the filler must be full before the next call.
		fr.Reply(fr.FunctionCall("exec_command", map[string]any{"cmd": filler, "yield_time_ms": 120000})),
		{When: fr.AfterOutput, Items: []fr.Item{fr.ExecCommand(asked, "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("All done.")}},
	})
	// A lower limit than the default's 4,096, for a quick fill: the same
	// cgroup, the same refusal.
	home := strings.TrimPrefix(env[0], "HOME=")
	e2etest.WriteFile(t, filepath.Join(home, ".config", "sentinel", "config.toml"), "[sandbox]\npids_max = 300\n")
	env = append(env, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Fill, then write the file.")
	// The filler is allowed by the policy (a script in the project).
	cardUp := e2etest.Has(asked, "[a] approve once")
	// Once the model has sent the asked call, the next start refused in the
	// sandbox is the agent's hook (the filler makes none of its own but on
	// a lost race for a freed slot): the filler frees its pids then.
	openCodex(tm, "the model sending the asked call", func(string, bool) bool { return len(model.Requests()) >= 2 })
	e2etest.WriteFile(t, filepath.Join(dir, "arm"), "")
	openCodex(tm, "the card for "+asked+", the turn's end or the run stopped", func(s string, armed bool) bool {
		return armed && cardUp(s) || strings.Contains(s, "All done.") || strings.Contains(s, "run failed")
	})
	s := tm.Screen()
	errs, _ := os.ReadFile(filepath.Join(dir, "fill.err"))
	t.Logf("filler's errors: %s", errs)
	for _, r := range model.Requests() {
		for _, o := range r.LastOutputs() {
			t.Logf("the model heard: %q", o.Text)
		}
	}
	t.Logf("screen:\n%s", s)
	if cardUp(s) {
		tm.Keys("d")
		t.Skipf("the card for %q came up: the filler did not keep the hook from starting (its premise)\n%s", asked, s)
	}
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Codex ran the call whose hook could not start\n%s", s)
	}
}
