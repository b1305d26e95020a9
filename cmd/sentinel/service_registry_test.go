package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/runner/service"
)

// agentService is a `sentinel service` of a test: its own runtime, state
// and config dirs, its scanner limited to the test's agents directory (a
// test-build switch: other tests' agents on this machine are not its
// business), stopped and waited for when the test ends.
type agentService struct {
	bin, agents string
	env         []string
}

func startAgentService(t *testing.T, config string) *agentService {
	t.Helper()
	bin, err := testbin.SentinelWithTestHooks()
	if err != nil {
		t.Fatal(err)
	}
	rt, state, cfg, agents := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	os.Chmod(rt, 0o700)
	e2etest.WriteFile(t, filepath.Join(cfg, "sentinel", "config.toml"), config)
	u := &agentService{bin: bin, agents: agents, env: []string{"XDG_RUNTIME_DIR=" + rt, "XDG_STATE_HOME=" + state,
		"XDG_CONFIG_HOME=" + cfg, "SENTINEL_TEST_SERVICE_SCOPE=" + agents, "NO_COLOR=1"}}
	cmd := exec.Command(bin, "service")
	cmd.Env = append(os.Environ(), u.env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(e2etest.HangBound):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	u.waitFor(t, "the service answers", func() bool {
		select {
		case <-done:
			t.Fatalf("the service exited: %s", errb.String())
		default:
		}
		return strings.Contains(u.run(t, "service", "status").Stdout, "service: running")
	})
	return u
}

func (u *agentService) run(t *testing.T, args ...string) e2etest.Result {
	t.Helper()
	cmd := exec.Command(u.bin, args...)
	cmd.Env = append(os.Environ(), u.env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return e2etest.Result{Code: code, Stdout: out.String(), Stderr: errb.String()}
}

// ps is `sentinel ps --json`, decoded.
func (u *agentService) ps(t *testing.T) []service.Agent {
	t.Helper()
	res := u.run(t, "ps", "--json")
	if res.Code != 0 {
		t.Fatalf("sentinel ps --json: exit %d: %s", res.Code, res.Stderr)
	}
	var agents []service.Agent
	if err := json.Unmarshal([]byte(res.Stdout), &agents); err != nil {
		t.Fatalf("sentinel ps --json is not a JSON array of agents: %v\n%s", err, res.Stdout)
	}
	return agents
}

// waitFor polls cond, bounded by a generous deadline (a hung test's bound,
// not a speed check).
func (u *agentService) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	e2etest.Eventually(t, what, cond, nil)
}

// startAgent starts argv in the agents directory (its own process group,
// killed and reaped at the end) and returns a channel closed on its exit.
func startAgent(t *testing.T, argv ...string) (*exec.Cmd, chan struct{}) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	procgroup.Own(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = procgroup.Kill(cmd.Process.Pid)
		<-done
	})
	return cmd, done
}

func agentByPID(agents []service.Agent, pid int) (service.Agent, bool) {
	var found service.Agent
	ok := false
	for _, a := range agents {
		if int(a.PID) == pid {
			found, ok = a, true
			if a.State != service.StateTerminated {
				return a, true // a live entry says more than an old record
			}
		}
	}
	return found, ok
}

func gone(done chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// With the service up and require_launcher on, an agent started by hand is
// listed and then ended; one in allowed_apps stays.
func TestServiceEndsAgentsStartedByHand(t *testing.T) {
	u := startAgentService(t, "[service]\nrequire_launcher = true\nallowed_apps = [\"gemini\"]\nscan_interval = \"500ms\"\ngrace = \"2s\"\n")

	allowed, allowedDone := startAgent(t, e2etest.Script(t, filepath.Join(u.agents, "a"), "gemini", "sleep 1000"))
	u.waitFor(t, "ps lists the allowed gemini", func() bool { _, ok := agentByPID(u.ps(t), allowed.Process.Pid); return ok })

	hand, handDone := startAgent(t, e2etest.Script(t, filepath.Join(u.agents, "b"), "claude", "sleep 1000"))
	type started struct {
		name string
		cmd  *exec.Cmd
		done chan struct{}
	}
	byHand := []started{{"claude", hand, handDone}}
	if node, err := exec.LookPath("node"); err == nil {
		cli := filepath.Join(u.agents, "n", "node_modules", "@anthropic-ai", "claude-code", "cli.js")
		e2etest.WriteFile(t, cli, "setInterval(() => {}, 1000)\n")
		c, d := startAgent(t, node, cli)
		byHand = append(byHand, started{"node-hosted claude", c, d})
	}
	for _, a := range byHand {
		u.waitFor(t, "ps lists the "+a.name+" started by hand", func() bool {
			got, ok := agentByPID(u.ps(t), a.cmd.Process.Pid)
			return ok && got.Program == "claude" && (got.State == service.StateAdopted || got.State == service.StateTerminated)
		})
		u.waitFor(t, "the "+a.name+" started by hand is ended", func() bool { return gone(a.done) })
		var got service.Agent
		u.waitFor(t, "ps lists the "+a.name+" as terminated", func() bool {
			got, _ = agentByPID(u.ps(t), a.cmd.Process.Pid)
			return got.State == service.StateTerminated
		})
		if !strings.Contains(got.Reason, "require_launcher") {
			t.Fatalf("ps after the %s was ended: %+v", a.name, got)
		}
	}
	if gone(allowedDone) {
		t.Fatal("the agent in allowed_apps was ended")
	}
	if got, _ := agentByPID(u.ps(t), allowed.Process.Pid); got.State != service.StateAdopted {
		t.Fatalf("the allowed gemini: %+v", got)
	}
}

// A launched run's agent is never ended, whatever its name; ps names its
// run.
func TestServiceNeverEndsALaunchedRunsAgent(t *testing.T) {
	u := startAgentService(t, "[service]\nrequire_launcher = true\nscan_interval = \"500ms\"\ngrace = \"1s\"\n")
	dir := e2etest.ScratchRepo(t)
	// The run's agent is a program named claude that waits for the test
	// to let it finish; the sandbox shows it the file it waits for.
	agent := e2etest.Script(t, filepath.Join(u.agents, "r"), "claude", "while [ ! -e "+filepath.Join(u.agents, "r", "go")+" ]; do sleep 0.1; done\necho done > out.txt")
	cmd := exec.Command(u.bin, "run", "--plain", "--coder", "command", "answer", "--", agent)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), u.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	runDone := make(chan struct{})
	go func() { _ = cmd.Wait(); close(runDone) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-runDone
	})
	var launched service.Agent
	u.waitFor(t, "ps lists the run's agent as launched", func() bool {
		for _, a := range u.ps(t) {
			if a.Program == "claude" && a.State == service.StateLaunched && a.RunID != "" {
				launched = a
				return true
			}
		}
		if gone(runDone) {
			t.Fatalf("the run ended first:\n%s", out.String())
		}
		return false
	})
	// An agent started by hand now is ended; by then the policy has
	// looked at the launched one more than once.
	hand, handDone := startAgent(t, e2etest.Script(t, filepath.Join(u.agents, "h"), "codex", "sleep 1000"))
	u.waitFor(t, "the codex started by hand is ended", func() bool { return gone(handDone) })
	_ = hand
	if got, ok := agentByPID(u.ps(t), int(launched.PID)); !ok || got.State != service.StateLaunched {
		t.Fatalf("the launched run's agent after the policy acted: %+v (listed %v)\nrun output:\n%s", got, ok, out.String())
	}
	e2etest.WriteFile(t, filepath.Join(u.agents, "r", "go"), "")
	<-runDone
	if cmd.ProcessState.ExitCode() != 0 || !strings.Contains(out.String(), "landed") {
		t.Fatalf("the run did not finish and land: exit %d\n%s", cmd.ProcessState.ExitCode(), out.String())
	}
	// The run's registration ended with its status.
	journalPath := filepath.Join(u.stateDir(), "sentinel", "service", "events.jsonl")
	u.waitFor(t, "the service journal records the run's end as landed", func() bool {
		evs, _ := journal.ReadFile(journalPath)
		for _, ev := range evs {
			var e service.RunEntry
			if ev.Kind == service.KindRunUnregistered && ev.Decode(&e) == nil && e.RunID == launched.RunID && e.State == "landed" {
				return true
			}
		}
		return false
	})
}

func (u *agentService) stateDir() string {
	for _, kv := range u.env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			return v
		}
	}
	return ""
}

// With no service, ps scans by itself: the agent is listed as
// unsupervised and ps says the service is not running.
func TestPsWithoutTheService(t *testing.T) {
	bin, err := testbin.SentinelWithTestHooks()
	if err != nil {
		t.Fatal(err)
	}
	rt, agents := t.TempDir(), t.TempDir()
	os.Chmod(rt, 0o700)
	u := &agentService{bin: bin, agents: agents, env: []string{"XDG_RUNTIME_DIR=" + rt, "XDG_STATE_HOME=" + t.TempDir(),
		"XDG_CONFIG_HOME=" + t.TempDir(), "SENTINEL_TEST_SERVICE_SCOPE=" + agents}}
	a, _ := startAgent(t, e2etest.Script(t, filepath.Join(agents, "x"), "aider", "sleep 1000"))
	u.waitFor(t, "ps lists the aider as unsupervised", func() bool {
		got, ok := agentByPID(u.ps(t), a.Process.Pid)
		return ok && got.State == service.StateUnsupervised && got.Program == "aider" && got.Cwd != ""
	})
	if res := u.run(t, "ps", "--json"); !strings.Contains(res.Stderr, "service is not running") {
		t.Fatalf("ps --json does not say the service is down: %q", res.Stderr)
	}
	if res := u.run(t, "ps"); !strings.Contains(res.Stdout, "not running") || !strings.Contains(res.Stdout, "unsupervised") {
		t.Fatalf("ps:\n%s", res.Stdout)
	}
}
