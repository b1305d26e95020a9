package shellscope

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Once the sandbox's pids limit has refused a start, a shell the agent
// starts does not run its command (a hook's shell may have failed to
// start, and the agent may be running that call without it); the agent's
// hook itself still runs, and before any refusal every shell runs.
func TestAShellAfterThePidsLimitRefusedAStartDoesNotRun(t *testing.T) {
	self, bash := wrapperAndBash(t)
	events := filepath.Join(t.TempDir(), "pids.events")
	run := func(counted, script string) (string, int) {
		t.Helper()
		if err := os.WriteFile(events, []byte("max "+counted+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(self, "-c", script)
		cmd.Env = append(os.Environ(), envWrap+"="+bash, envEvents+"="+events)
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("0", "echo ran"); code != 0 || !strings.Contains(out, "ran") {
		t.Fatalf("no refused start: exit %d, %q; want the command run", code, out)
	}
	out, code := run("3", "echo ran > /dev/null; echo ran")
	if code != 126 || strings.Contains(out, "ran\n") || !strings.Contains(out, "ran out of processes") {
		t.Errorf("after 3 refused starts: exit %d, %q; want 126, not run, and why", code, out)
	}
	if out, code := run("3", "'"+self+"' hook codex"); code != 0 || !strings.Contains(out, "hook ran") {
		t.Errorf("the agent's hook after refused starts: exit %d, %q; want it run", code, out)
	}
	if out, code := run("3", self+" hook codex; echo ran"); code != 126 || strings.Contains(out, "hook ran") {
		t.Errorf("the hook with more after it: exit %d, %q; want 126", code, out)
	}
}

// The hook's shell is told apart only by its exact command: the wrapper's
// own program, "hook", one word.
func TestIsHookIsTheExactHookCommand(t *testing.T) {
	self := func(p string) bool { return p == "/opt/s/sentinel-helper" || p == "/opt/my dir/sentinel-helper" }
	for _, c := range []struct {
		argv []string
		want bool
	}{
		{[]string{"bash", "-c", "/opt/s/sentinel-helper hook codex"}, true},
		{[]string{"bash", "-lc", "/opt/s/sentinel-helper hook claude"}, true},
		{[]string{"bash", "-c", "'/opt/my dir/sentinel-helper' hook codex"}, true},
		{[]string{"bash", "-c", "/opt/my dir/sentinel-helper hook codex"}, false}, // unquoted space: another program
		{[]string{"bash", "-c", "/work/p/sentinel-helper hook codex"}, false},
		{[]string{"bash", "-c", "/opt/s/sentinel-helper hook codex; id"}, false},
		{[]string{"bash", "-c", "/opt/s/sentinel-helper hook codex x"}, false},
		{[]string{"bash", "-c", "/opt/s/sentinel-helper hook $(id)"}, false},
		{[]string{"bash", "-c", "$(id)/opt/s/sentinel-helper hook codex"}, false},
		{[]string{"bash", "-c", "/opt/s/sentinel-helper hook codex", "x"}, false},
		{[]string{"bash", "/opt/s/sentinel-helper hook codex"}, false},
	} {
		if got := isHook(c.argv, self); got != c.want {
			t.Errorf("isHook(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}

// The sandbox's pids.events is found from /proc/self/cgroup only for a
// cgroup named as the sandbox names its own; its "max" is the count.
func TestThePidsEventsAreTheSandboxs(t *testing.T) {
	if f := pidsEventsFor([]byte("8:pids:/\n0::/\n")); f != "" {
		t.Errorf("no sandbox cgroup: got %q", f)
	}
	if n := refusedStarts([]byte("max 12\n")); n != 12 {
		t.Errorf("refusedStarts = %d, want 12", n)
	}
	if n := refusedStarts([]byte("max 0\n")); n != 0 {
		t.Errorf("refusedStarts = %d, want 0", n)
	}
}

// A command's shell has a lower RLIMIT_NPROC than the agent's (hard too),
// so the agent keeps starts for its hooks; the hook's own shell does not.
func TestACommandLeavesTheAgentRoomForItsHooks(t *testing.T) {
	self, bash := wrapperAndBash(t)
	run := func(script string) string {
		t.Helper()
		cmd := exec.Command("prlimit", "--nproc=1024:1024", self, "-c", script)
		cmd.Env = append(os.Environ(), envWrap+"="+bash)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("no prlimit")
	}
	if got := run("echo $(ulimit -Su) $(ulimit -Hu)"); got != "960 960" {
		t.Errorf("a command's nproc limits = %q, want 960 960 (1024 less the hooks' 64)", got)
	}
	if got := run("'" + self + "' hook codex"); got != "hook ran" {
		t.Errorf("the hook: %q", got)
	}
	if hooksRoom(100) != 0 || hooksRoom(4096) != 256 || hooksRoom(300) != 32 {
		t.Errorf("hooksRoom: %d %d %d", hooksRoom(100), hooksRoom(4096), hooksRoom(300))
	}
}
