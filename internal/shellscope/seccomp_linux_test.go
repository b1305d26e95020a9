package shellscope

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A command cannot lower the agent's limits, nice, scheduling class or I/O
// class (Landlock does not scope those calls: the seccomp filter does),
// and it still can its own.
func TestACommandCannotThrottleTheAgent(t *testing.T) {
	self, bash := wrapperAndBash(t)
	for _, tool := range []string{"prlimit", "renice", "ionice", "chrt"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	agent := exec.Command("sleep", "300") // outside the scope, like the agent
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer agent.Process.Kill()
	pid := strconv.Itoa(agent.Process.Pid)
	before := agentState(t, pid)
	script := `A=` + pid + `
prlimit --pid $A --nproc=1:1 2>/dev/null; echo "prlimit nproc=$?"
prlimit --pid $A --nofile=3:3 2>/dev/null; echo "prlimit nofile=$?"
renice -n 19 -p $A >/dev/null 2>&1; echo "renice=$?"
ionice -c 3 -p $A 2>/dev/null; echo "ionice=$?"
chrt -i -p 0 $A 2>/dev/null; echo "chrt=$?"
prlimit --pid $A --nofile >/dev/null; echo "prlimit read=$?"
(ulimit -n 100 && ulimit -u 100) ; echo "ulimit=$?"
nice -n 5 true; echo "nice=$?"
prlimit --nofile=50:50 true; echo "prlimit self=$?"
ionice -c 3 true; echo "ionice self=$?"
chrt -i 0 true; echo "chrt self=$?"`
	cmd := exec.Command(self, "-c", script)
	cmd.Env = append(os.Environ(), envWrap+"="+bash)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the wrapped shell: %v\n%s", err, out)
	}
	for _, want := range []string{"prlimit nproc=1", "prlimit nofile=1", "renice=1", "ionice=1", "chrt=1",
		"prlimit read=0", "ulimit=0", "nice=0", "prlimit self=0", "ionice self=0", "chrt self=0"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("the wrapped shell printed no %q:\n%s", want, out)
		}
	}
	if after := agentState(t, pid); after != before {
		t.Errorf("the agent's limits or priorities changed:\nbefore %s\nafter  %s", before, after)
	}
}

// agentState is pid's process limits, nice and scheduling policy.
func agentState(t *testing.T, pid string) string {
	t.Helper()
	lim, err := os.ReadFile("/proc/" + pid + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:]))
	io, _ := exec.Command("ionice", "-p", pid).Output()
	return string(lim) + " nice " + f[16] + " policy " + f[38] + " io " + string(io)
}
