//go:build unix

package service

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// scoped limits the scanner to dir for one test: the machine may run other
// agents (other tests'), which a test's policy must not touch.
func scoped(t *testing.T, dir string) {
	t.Helper()
	old := scopeRoot
	scopeRoot = filepath.Clean(dir)
	t.Cleanup(func() { scopeRoot = old })
}

// fakeAgent starts a shell script named name in its own directory under dir
// and returns it with a channel closed when it has exited. The script's
// process group is killed and reaped when the test ends.
func fakeAgent(t *testing.T, dir, name, body string, env ...string) (*exec.Cmd, chan struct{}) {
	t.Helper()
	d, err := os.MkdirTemp(dir, "agent")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(d, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return startCmd(t, exec.Command(path), env...)
}

func startCmd(t *testing.T, cmd *exec.Cmd, env ...string) (*exec.Cmd, chan struct{}) {
	t.Helper()
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})
	return cmd, done
}

// scanUntil scans until every pid in want is tracked (each started
// process shows up in /proc at once, but a shell needs to have exec'd).
func scanUntil(t *testing.T, s *Service, wg *sync.WaitGroup, want ...int) {
	t.Helper()
	if poll.Until(30*time.Second, func() bool {
		s.Scan(context.Background(), wg)
		l := s.Listing()
		found := 0
		for _, p := range want {
			for _, a := range l.Agents {
				if int(a.PID) == p {
					found++
				}
			}
		}
		return found == len(want)
	}) {
		return
	}
	t.Fatalf("the scanner never found all of %v: %+v", want, s.Listing().Agents)
}

func stateOf(s *Service, pid int) State {
	for _, a := range s.Listing().Agents {
		if int(a.PID) == pid {
			return a.State
		}
	}
	return ""
}

func exited(done chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

func TestRequireLauncherEndsOnlyAdoptedAgents(t *testing.T) {
	dir := t.TempDir()
	scoped(t, dir)
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), "service")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	s := New(Options{RequireLauncher: true, AllowedApps: []string{"gemini"}, Grace: 300e6, Journal: j})
	var clock sync.Mutex
	now := time.Now().UTC()
	s.now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }

	adopted, adoptedDone := fakeAgent(t, dir, "claude", "sleep 1000")
	stubborn, stubbornDone := fakeAgent(t, dir, "codex", "trap '' TERM\nwhile :; do sleep 1; done")
	allowedOne, allowedDone := fakeAgent(t, dir, "gemini", "sleep 1000")
	bypass, bypassDone := fakeAgent(t, dir, "opencode", "sleep 1000", BypassEnv+"=1")
	// A launched run: a Sentinel process (this test binary is the
	// service's own executable here) registered as a run, with its agent
	// below it.
	d, _ := os.MkdirTemp(dir, "run")
	agentPath := filepath.Join(d, "claude")
	os.WriteFile(agentPath, []byte("#!/bin/sh\nsleep 1000\n"), 0o755)
	run, runDone := startCmd(t, exec.Command("sh", "-c", agentPath+"; true"))
	if _, err := s.admit(context.Background(), Registration{RunID: "20260101-000000-aaaaaa", PID: run.Process.Pid}, os.Getpid()); err != nil {
		t.Fatalf("a run of this process's own child was refused: %v", err)
	}

	var wg sync.WaitGroup
	scanUntil(t, s, &wg, adopted.Process.Pid, stubborn.Process.Pid, allowedOne.Process.Pid, bypass.Process.Pid)
	var launchedPID int
	for i := 0; launchedPID == 0; i++ {
		if i == 200 {
			t.Fatalf("the run's agent is never launched: %+v", s.Listing().Agents)
		}
		s.Scan(context.Background(), &wg)
		for _, a := range s.Listing().Agents {
			if a.RunID == "20260101-000000-aaaaaa" {
				launchedPID = int(a.PID)
			}
		}
	}
	for pid, want := range map[int]State{adopted.Process.Pid: StateAdopted, stubborn.Process.Pid: StateAdopted,
		allowedOne.Process.Pid: StateAdopted, bypass.Process.Pid: StateBypassed, launchedPID: StateLaunched} {
		if got := stateOf(s, pid); got != want {
			t.Errorf("pid %d: state %q, want %q", pid, got, want)
		}
	}
	// Every agent here runs below a Sentinel process (this test binary is
	// the service's executable), so an unregistered one gets time for its
	// run's registration to land: nothing is ended yet.
	s.Scan(context.Background(), &wg)
	wg.Wait()
	for _, c := range []*exec.Cmd{adopted, stubborn} {
		if !alive(context.Background(), Target{PID: int32(c.Process.Pid), Start: mustStart(t, c.Process.Pid)}) {
			t.Fatal("an agent below a Sentinel process was ended before its run could register")
		}
	}
	clock.Lock()
	now = now.Add(sentinelPending + time.Second)
	clock.Unlock()
	s.Scan(context.Background(), &wg) // past the pending time: the policy acts
	wg.Wait()                         // every ending has sent its signals and seen the result

	// Ended means a zombie at least; its reaping here follows.
	for name, done := range map[string]chan struct{}{"claude": adoptedDone, "codex (ignores TERM)": stubbornDone} {
		select {
		case <-done:
		case <-time.After(10 * time.Second): // a bound on a hung test, not a speed check
			evs, _ := journal.ReadFile(j.Path())
			var lines []string
			for _, ev := range evs {
				lines = append(lines, string(ev.Kind)+": "+ev.Text)
			}
			t.Fatalf("the adopted %s outlived require_launcher:\n%s", name, strings.Join(lines, "\n"))
		}
	}
	if ws, ok := stubborn.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the agent that ignores TERM ended by %v, want KILL after the grace", stubborn.ProcessState)
	}
	if exited(allowedDone) || exited(bypassDone) || exited(runDone) {
		t.Fatalf("ended what the policy must leave: allowed_apps %v, bypassed %v, launched run %v", exited(allowedDone), exited(bypassDone), exited(runDone))
	}
	if !alive(context.Background(), Target{PID: int32(launchedPID), Start: mustStart(t, launchedPID)}) {
		t.Fatal("a launched run's agent was ended")
	}
	evs, _ := journal.ReadFile(j.Path())
	var ended, endings int
	for _, ev := range evs {
		switch ev.Kind {
		case KindAgentTerminated:
			if a, ok := AsAgent(ev); ok && strings.Contains(a.Reason, "require_launcher") {
				ended++
			}
		case KindAgentEnding:
			endings++
		}
	}
	if ended != 2 || endings < 3 { // TERM for both, KILL for the stubborn one
		t.Fatalf("the journal says %d ended (want 2) with %d signals (want 3):\n%v", ended, endings, evs)
	}
}

func mustStart(t *testing.T, pid int) int64 {
	t.Helper()
	st, ok := startOf(context.Background(), int32(pid))
	if !ok {
		t.Fatalf("pid %d is gone", pid)
	}
	return st
}

// A pid is a number the kernel hands out again: a target whose start time
// is not the process's now is never signalled.
func TestSignalNeverReachesAReusedPID(t *testing.T) {
	cmd, done := startCmd(t, exec.Command("sleep", "1000"))
	pid := cmd.Process.Pid
	start := mustStart(t, pid)
	stale := Target{PID: int32(pid), Start: start - 1000} // the process that had this pid before
	if err := signal(context.Background(), stale, syscall.SIGKILL); !errors.Is(err, errGone) {
		t.Fatalf("signal to a reused pid: %v, want errGone", err)
	}
	if exited(done) || !alive(context.Background(), Target{PID: int32(pid), Start: start}) {
		t.Fatal("the process now holding the pid was signalled")
	}
	if err := signal(context.Background(), Target{PID: int32(pid), Start: start}, syscall.SIGKILL); err != nil {
		t.Fatalf("signal to the right process: %v", err)
	}
	<-done
}

// A registration counts only for what the kernel says: the peer's own pid
// or a descendant of it, and only from Sentinel's executable.
func TestRegistrationTrustsTheKernel(t *testing.T) {
	ctx := context.Background()
	s := New(Options{})
	me := os.Getpid()
	if _, err := s.admit(ctx, Registration{RunID: "r1", PID: 1}, me); err == nil || !strings.Contains(err.Error(), "not the peer's") {
		t.Fatalf("a run claiming pid 1 (not the peer, an ancestor): %v", err)
	}
	if _, err := s.admit(ctx, Registration{RunID: "r1", PID: os.Getppid()}, me); err == nil {
		t.Fatal("a run claiming its parent's pid was admitted")
	}
	if _, err := s.admit(ctx, Registration{RunID: "r\nforged", PID: me}, me); err == nil {
		t.Fatal("a run id with a line break was admitted")
	}
	e, err := s.admit(ctx, Registration{RunID: "r1", PID: me}, me)
	if err != nil {
		t.Fatalf("the peer's own pid: %v", err)
	}
	if e.StartMS != mustStart(t, me) {
		t.Fatalf("the entry's start time %d is not the kernel's", e.StartMS)
	}
	if _, err := s.admit(ctx, Registration{RunID: "r1", PID: me}, me); err == nil {
		t.Fatal("a second live registration of one run id was admitted")
	}
	other := New(Options{Exe: "/bin/sh"})
	if _, err := other.admit(ctx, Registration{RunID: "r2", PID: me}, me); err == nil || !strings.Contains(err.Error(), "not running Sentinel's executable") {
		t.Fatalf("a registration from a process that is not Sentinel: %v", err)
	}
}

// What the service believes about processes comes from the kernel's /proc,
// not from a HOST_PROC in its environment pointing at planted files.
func TestProcessFactsIgnoreHostProc(t *testing.T) {
	fake := t.TempDir()
	os.MkdirAll(filepath.Join(fake, "1"), 0o755)
	os.WriteFile(filepath.Join(fake, "1", "stat"), []byte("1 (x) S 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 1 0 0\n"), 0o644)
	t.Setenv("HOST_PROC", fake)
	if _, ok := startOf(context.Background(), int32(os.Getpid())); !ok {
		t.Fatal("startOf followed HOST_PROC")
	}
	tab, err := readProcs(context.Background())
	if err != nil || tab[int32(os.Getpid())] == nil {
		t.Fatalf("readProcs followed HOST_PROC: %v", err)
	}
}
