package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// envTestBroker makes the test binary act as a bare broker process (so a
// test can kill -9 it like a crashed run).
const envTestBroker = "SENTINEL_TEST_BROKER_SOCKET"

func TestMain(m *testing.M) {
	if sock := os.Getenv(envTestBroker); sock != "" {
		os.Exit(serveTestBroker(sock))
	}
	e2etest.Main(m, nil, nil)
}

// serveTestBroker runs a broker whose decider never answers, until killed.
func serveTestBroker(sock string) int {
	b, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: sock, RunID: "r-child",
		Decider: approvals.DeciderFunc(func(ctx context.Context, p *approvals.Prompt) approvals.Decision {
			fmt.Println("asked")
			<-ctx.Done()
			return approvals.Decision{}
		})})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	b.Start()
	fmt.Println("ready")
	select {}
}

// hookShortDir is a temp dir with a path short enough for a unix socket.
func hookShortDir(t testing.TB) string {
	d, err := os.MkdirTemp("", "sh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

type hookRun struct {
	broker *approvals.Broker
	socket string
	jpath  string
	j      *journal.Journal
}

func startHookRun(t testing.TB, d approvals.Decider) *hookRun {
	dir := hookShortDir(t)
	jp := filepath.Join(dir, "events.jsonl")
	j, err := journal.Open(jp, "r-hook")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	b, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: sock, RunID: "r-hook", Decider: d, Journal: j,
		Context: policy.Context{Workspace: dir, Cwd: dir}})
	if err != nil {
		t.Fatal(err)
	}
	b.Start()
	t.Cleanup(func() { b.Close(); j.Close() })
	return &hookRun{broker: b, socket: sock, jpath: jp, j: j}
}

func hookDecider(out approvals.Outcome, msg string) approvals.Decider {
	return approvals.DeciderFunc(func(ctx context.Context, p *approvals.Prompt) approvals.Decision {
		return approvals.Decision{Outcome: out, By: "person", Reason: "test " + string(out), Message: msg}
	})
}

type binResult struct {
	stdout, stderr string
	code           int
}

// runSentinelBin runs the built binary with a clean environment plus env.
func runSentinelBin(t testing.TB, dir, stdin string, env []string, args ...string) binResult {
	t.Helper()
	return runProgram(t, e2etest.Bin, dir, stdin, env, args...)
}

// runProgram runs bin with a clean environment plus env.
func runProgram(t testing.TB, bin, dir, stdin string, env []string, args ...string) binResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return binResult{so.String(), se.String(), code}
}

const bashPayload = `{"session_id":"s","transcript_path":"/tmp/t","cwd":"/w","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"frobnicate --widgets 3","description":"d"},"tool_use_id":"toolu_1"}`

func claudeDecision(t *testing.T, stdout string) (string, string) {
	t.Helper()
	var out struct {
		H struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("hook stdout is not Claude's JSON: %q", stdout)
	}
	return out.H.Decision, out.H.Reason
}

func TestHookFailsClosed(t *testing.T) {
	live := startHookRun(t, hookDecider(approvals.OutcomeAllow, ""))
	closed := startHookRun(t, hookDecider(approvals.OutcomeAllow, ""))
	closed.broker.Close()
	tests := []struct {
		name, stdin, socket, stderr string
	}{
		{"no run", bashPayload, "", approvals.EnvSocket},
		{"garbage on stdin", "garbage", live.socket, "not JSON"},
		{"empty stdin", "", live.socket, "empty"},
		{"tool input of the wrong shape", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":42}}`, live.socket, "command"},
		{"broker closed", bashPayload, closed.socket, "cannot reach"},
		{"socket path is not a socket", bashPayload, "/etc/hostname", "cannot reach"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := []string{}
			if tc.socket != "" {
				env = append(env, approvals.EnvSocket+"="+tc.socket)
			}
			r := runSentinelBin(t, "", tc.stdin, env, "hook", "claude")
			if r.code != 2 {
				t.Fatalf("exit %d, want 2 (stdout %q stderr %q)", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("stderr %q does not say %q", r.stderr, tc.stderr)
			}
			if dec, _ := claudeDecision(t, r.stdout); dec != "deny" {
				t.Fatalf("stdout decision %q, want deny", dec)
			}
		})
	}
}

func TestHookBrokerKilled(t *testing.T) {
	sock := filepath.Join(hookShortDir(t), "k.sock")
	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), envTestBroker+"="+sock)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	lines := make(chan string, 4)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := out.Read(buf)
			for _, l := range strings.Fields(string(buf[:n])) {
				lines <- l
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	if l := <-lines; l != "ready" {
		t.Fatalf("test broker said %q", l)
	}
	// a hook is waiting on the broker when it dies
	hook := exec.Command(e2etest.Bin, "hook", "claude")
	hook.Env = []string{approvals.EnvSocket + "=" + sock}
	hook.Stdin = strings.NewReader(bashPayload)
	var so, se bytes.Buffer
	hook.Stdout, hook.Stderr = &so, &se
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	if l := <-lines; l != "asked" {
		t.Fatalf("test broker said %q", l)
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	err = hook.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("waiting hook after kill -9: %v (stderr %q)", err, se.String())
	}
	// and a new hook meets the dead socket file
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("kill -9 should leave the socket file behind: %v", err)
	}
	r := runSentinelBin(t, "", bashPayload, []string{approvals.EnvSocket + "=" + sock}, "hook", "claude")
	if r.code != 2 || !strings.Contains(r.stderr, "cannot reach") {
		t.Fatalf("hook against a killed broker: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestHookAnswersFromTheBroker(t *testing.T) {
	tests := []struct {
		adapter, payload string
		decider          approvals.Decider
		exit             int
		stdout           string
	}{
		{"claude", bashPayload, hookDecider(approvals.OutcomeAllow, ""), 0, `"permissionDecision":"allow"`},
		{"claude", bashPayload, hookDecider(approvals.OutcomeDeny, "use make test"), 2, `"permissionDecisionReason":"use make test"`},
		{"codex", `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"shell","tool_input":{"command":["bash","-lc","frob"]}}`, hookDecider(approvals.OutcomeDeny, "no"), 2, `"permissionDecision":"deny"`},
		{"gemini", `{"hook_event_name":"BeforeTool","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"frob"}}`, hookDecider(approvals.OutcomeAllow, ""), 0, `{"decision":"allow"`},
		{"crush", `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"bash","tool_input":{"command":"frob"}}`, hookDecider(approvals.OutcomeDeny, "no"), 2, `{"decision":"deny"`},
		{"claude", bashPayload, nil, 2, `no one to ask`},
	}
	for _, tc := range tests {
		t.Run(tc.adapter, func(t *testing.T) {
			run := startHookRun(t, tc.decider)
			r := runSentinelBin(t, "", tc.payload, []string{approvals.EnvSocket + "=" + run.socket}, "hook", tc.adapter)
			if r.code != tc.exit || !strings.Contains(r.stdout, tc.stdout) {
				t.Fatalf("exit %d stdout %q stderr %q; want exit %d and %s", r.code, r.stdout, r.stderr, tc.exit, tc.stdout)
			}
		})
	}
}

func TestHookReportsReachTheJournal(t *testing.T) {
	run := startHookRun(t, nil)
	env := []string{approvals.EnvSocket + "=" + run.socket}
	post := `{"hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make test"},"tool_response":{"stdout":"FAIL","exit_code":1},"tool_use_id":"toolu_2"}`
	if r := runSentinelBin(t, "", post, env, "hook", "claude"); r.code != 0 || r.stdout != "" {
		t.Fatalf("PostToolUse: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := runSentinelBin(t, "", `{"hook_event_name":"Stop","stop_hook_active":false}`, env, "hook", "claude"); r.code != 0 {
		t.Fatalf("Stop: exit %d stderr %q", r.code, r.stderr)
	}
	// with no broker a report warns (exit 1) and never blocks the agent (exit 2)
	if r := runSentinelBin(t, "", `{"hook_event_name":"Stop"}`, nil, "hook", "claude"); r.code != 1 {
		t.Fatalf("Stop without a run: exit %d, want 1", r.code)
	}
	run.j.Sync()
	evs, err := journal.ReadFile(run.jpath)
	if err != nil {
		t.Fatal(err)
	}
	var tool, stop bool
	for _, ev := range evs {
		tool = tool || (ev.Lane == journal.Tool && ev.Text == "Bash: make test → exit 1")
		stop = stop || (ev.Lane == journal.Coder && ev.Kind == "coder-stop")
	}
	if !tool || !stop {
		t.Fatalf("journal lacks the tool result (%v) or the stop (%v): %+v", tool, stop, evs)
	}
}

// BenchmarkHookRoundTrip measures one tool call's hook — process start to
// decision printed, against a live broker — through sentinel hook and
// through sentinel-helper, next to starting a trivial Go binary, and
// reports the ratios.
func BenchmarkHookRoundTrip(b *testing.B) {
	run := startHookRun(b, hookDecider(approvals.OutcomeAllow, ""))
	dir := hookShortDir(b)
	src := filepath.Join(dir, "main.go")
	os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o600)
	trivial := filepath.Join(dir, "trivial")
	build := exec.Command("go", "build", "-o", trivial, src)
	build.Env = append(os.Environ(), "GOFLAGS=", "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build trivial: %v\n%s", err, out)
	}
	var hookTotal, helperTotal, trivialTotal time.Duration
	hook := func(bin string) time.Duration {
		t0 := time.Now()
		h := exec.Command(bin, "hook", "claude")
		h.Env = []string{approvals.EnvSocket + "=" + run.socket}
		h.Stdin = strings.NewReader(bashPayload)
		out, err := h.Output()
		if err != nil || !bytes.Contains(out, []byte(`"allow"`)) {
			b.Fatalf("hook %s: %v %s", bin, err, out)
		}
		return time.Since(t0)
	}
	for b.Loop() {
		t0 := time.Now()
		c := exec.Command(trivial)
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
		trivialTotal += time.Since(t0)
		hookTotal += hook(e2etest.Bin)
		helperTotal += hook(e2etest.HelperBin) // what a run installs when the helper is beside sentinel
	}
	n := float64(b.N)
	b.ReportMetric(float64(hookTotal.Microseconds())/n, "hook-µs/op")
	b.ReportMetric(float64(helperTotal.Microseconds())/n, "helper-µs/op")
	b.ReportMetric(float64(trivialTotal.Microseconds())/n, "trivial-µs/op")
	b.ReportMetric(float64(hookTotal)/float64(trivialTotal), "ratio")
	b.ReportMetric(float64(helperTotal)/float64(trivialTotal), "helper-ratio")
}

func TestHookDeniesBeforeTheAgentGivesUp(t *testing.T) {
	never := approvals.DeciderFunc(func(ctx context.Context, p *approvals.Prompt) approvals.Decision {
		<-ctx.Done()
		return approvals.Decision{}
	})
	run := startHookRun(t, never)
	r := runSentinelBin(t, "", bashPayload, []string{approvals.EnvSocket + "=" + run.socket, approvals.EnvHookTimeout + "=200ms"}, "hook", "claude")
	if r.code != 2 || !strings.Contains(r.stderr, "no decision from the broker in time") {
		t.Fatalf("exit %d stderr %q, want a deny (exit 2) when the hook's own deadline passes", r.code, r.stderr)
	}
}

func TestMistypedHookCommandDenies(t *testing.T) {
	run := startHookRun(t, hookDecider(approvals.OutcomeAllow, ""))
	env := []string{approvals.EnvSocket + "=" + run.socket}
	for _, args := range [][]string{{"hook"}, {"hook", "claud"}, {"hook", "claude", "extra"}, {"hook", "claude", "--bogus"}} {
		if r := runSentinelBin(t, "", bashPayload, env, args...); r.code != 2 {
			t.Errorf("%v: exit %d (stdout %q), want 2", args, r.code, r.stdout)
		}
	}
}
