package sandbox

import (
	"strings"
	"testing"
)

// A command cannot make the OOM killer pick the agent (or a hook) first,
// nor starve it through its autogroup, nor stretch its timers: those are
// writes to /proc/PID/oom_score_adj, /proc/PID/autogroup and
// /proc/PID/timerslack_ns, which the kernel allows any process of the same
// user without asking Landlock's ptrace rule. The sandbox's domain grants
// /proc read-only, so every one of them is refused (EACCES), the command's
// own /proc/self included; the target keeps its values. The "agent" here
// is the sandboxed shell itself, the parent of the command that tries.
// The writes append (>>, no O_TRUNC): a truncating redirect is refused
// for want of the truncate right alone, which would hide a granted write.
func TestACommandCannotMarkTheAgentForTheOOMKiller(t *testing.T) {
	script := `A=$$
before="$(cat /proc/$A/oom_score_adj) $(cat /proc/$A/autogroup 2>/dev/null | tr -d '\n')"
sh -c '
try() { if sh -c "$2" 2>/dev/null; then echo "$1=written"; else echo "$1=refused"; fi; }
try oom "echo 1000 >> /proc/$1/oom_score_adj"
try oomadj "echo 15 >> /proc/$1/oom_adj"
try autogroup "echo 19 >> /proc/$1/autogroup"
try timerslack "echo 1000000000 >> /proc/$1/timerslack_ns"
try self "echo 1000 >> /proc/self/oom_score_adj"
' sh $A
after="$(cat /proc/$A/oom_score_adj) $(cat /proc/$A/autogroup 2>/dev/null | tr -d '\n')"
[ "$before" = "$after" ] && echo "unchanged" || echo "changed: $before -> $after"`
	for _, mode := range modes(t) {
		t.Run(string(mode), func(t *testing.T) {
			out, errOut, code := sentinel(t, "", "sandbox", "run", "--sandbox", string(mode), "--workspace", t.TempDir(), "--", "sh", "-c", script)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			for _, want := range []string{"oom=refused", "oomadj=refused", "autogroup=refused", "timerslack=refused", "self=refused", "unchanged"} {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("the command printed no %q:\n%s", want, out)
				}
			}
		})
	}
}
