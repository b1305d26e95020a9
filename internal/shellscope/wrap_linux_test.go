package shellscope

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// envWrap makes this test binary the wrapper (TestMain) for the real shell
// it names.
const envWrap = "SHELLSCOPE_TEST_WRAP"

// envPlan names the file the wrapper reads the sandbox's plan from in
// place of stage 1's argv (the test has no stage 1); read only by this
// test binary.
const envPlan = "SHELLSCOPE_TEST_PLAN"

// envEvents gives the wrapper a pids.events file of the test's own.
const envEvents = "SHELLSCOPE_TEST_PIDS_EVENTS"

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == "hook" { // the hook a wrapped shell runs
		fmt.Println("hook ran")
		os.Exit(0)
	}
	if p := os.Getenv(envPlan); p != "" {
		planFile = p
	}
	if f := os.Getenv(envEvents); f != "" {
		pidsEventsFile = func() string { return f }
	}
	if real := os.Getenv(envWrap); real != "" {
		os.Exit(Main(real))
	}
	os.Exit(m.Run())
}

// A shell is below a scope when an ancestor other than pid 1 refuses a
// signal; the walk stops at pid 1 and at a parent it cannot read.
func TestScopedWalksTheAncestors(t *testing.T) {
	parents := map[int]int{40: 30, 30: 20, 20: 10, 10: 1}
	parent := func(p int) int { return parents[p] }
	refusing := func(pids ...int) func(int) error {
		return func(p int) error {
			for _, r := range pids {
				if p == r {
					return syscall.EPERM
				}
			}
			return nil
		}
	}
	for _, c := range []struct {
		name   string
		kill   func(int) error
		ppid   int
		scoped bool
	}{
		{"the agent's own shell: only stage 1 refuses", refusing(1), 20, false},
		{"a command's shell: the agent refuses", refusing(20, 10, 1), 40, true},
		{"the parent itself refuses", refusing(40), 40, true},
		{"a gone ancestor (no such process) is not a scope", func(int) error { return syscall.ESRCH }, 40, false},
		{"an orphan (parent pid 1)", refusing(1), 1, false},
		{"an unreadable parent ends the walk", refusing(20), 50, false},
	} {
		if got := scoped(c.ppid, c.kill, parent); got != c.scoped {
			t.Errorf("%s: scoped = %v, want %v", c.name, got, c.scoped)
		}
	}
}

// The wrapper runs the real shell with its arguments in a new signal
// scope: the shell cannot signal the process that started it (the agent,
// here this test), `kill -9 -1` reaches nothing outside, and a shell it
// starts through the wrapper stays in its scope, so one command's
// processes still signal each other. The shell runs `kill -9 -1` only once
// it has seen its parent refuse a signal: unscoped, as root on a shared
// machine, it would end every process there.
func TestTheWrapperScopesTheShellItRuns(t *testing.T) {
	self, bash := wrapperAndBash(t)
	bystander := exec.Command("sleep", "300") // started outside, like a hook
	if err := bystander.Start(); err != nil {
		t.Fatal(err)
	}
	defer bystander.Process.Kill()
	script := `kill -0 $PPID 2>/dev/null; echo "parent=$?"
kill -0 ` + strconv.Itoa(bystander.Process.Pid) + ` 2>/dev/null; echo "bystander=$?"
sleep 300 & s=$!
"$W" -c 'kill -0 $1 2>/dev/null; echo "sibling=$?"' x $s
kill $s; echo "own child=$?"
if ! kill -0 $PPID 2>/dev/null; then kill -9 -1 2>/dev/null; echo "after kill -9 -1"; fi`
	cmd := exec.Command(self, "-c", script)
	cmd.Env = append(os.Environ(), envWrap+"="+bash, "W="+self)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the wrapped shell: %v\n%s", err, out)
	}
	for _, want := range []string{"parent=1", "bystander=1", "sibling=0", "own child=0", "after kill -9 -1"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the wrapped shell printed no %q:\n%s", want, out)
		}
	}
	if err := bystander.Process.Signal(syscall.Signal(0)); errors.Is(err, os.ErrProcessDone) {
		t.Errorf("the process outside the scope was killed by the wrapped shell's kill -9 -1")
	}
}

// wrapperAndBash skips a test on a kernel without the signal scope or a
// host without bash, and returns this test binary (which runs Main when
// envWrap names a shell, as the wrapper) and bash.
func wrapperAndBash(t *testing.T) (self, bash string) {
	t.Helper()
	if ABI() < ScopeABI {
		t.Skipf("Landlock ABI %d: no signal scope (needs %d)", ABI(), ScopeABI)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	self, err = os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self, bash
}
