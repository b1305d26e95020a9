package codex

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
)

// codexExecEnv starts the fake Responses API with script and returns the
// environment that points Codex at it (asking for model name; HOME, a new
// one, first), and the host to allow.
func codexExecEnv(t *testing.T, name string, script fr.Script) (model *fr.Server, env []string, host string) {
	t.Helper()
	model, err := fr.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })
	home := t.TempDir()
	// The person has Codex's animations off (e2etest.CodexStill): a run
	// keeps it, so Codex's TUI holds still while it waits.
	e2etest.WriteFile(t, filepath.Join(home, ".codex", "config.toml"), e2etest.CodexStill)
	env = []string{"HOME=" + home, "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(home, ".state"),
		"OPENAI_BASE_URL=" + model.BaseURL(), "OPENAI_API_KEY=sk-test-fake", "SENTINEL_CODEX_MODEL=" + name}
	return model, env, strings.TrimPrefix(model.URL, "http://")
}

// TestExecCodexInteractiveInTmux is a person at a terminal running the
// real Codex TUI in place (`sentinel exec -- codex "task"`) in a 200×60
// tmux window. Codex's commands reach the person's card in the exec TUI
// through its hook: the person approves the first (it writes the
// project), denies the second with a message (it does not run, and Codex
// shows the message as the hook's block); a steering message from the exec
// TUI reaches the model.
func TestExecCodexInteractiveInTmux(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.ScratchRepo(t)
	const (
		approve = `eval "echo approved > approved.txt"` // the policy asks about eval
		deny    = `eval "echo denied > denied.txt"`
		denyMsg = "not this one"
		steer   = "also add a README"
	)
	after := func(items ...fr.Item) fr.Turn { return fr.Turn{When: fr.AfterOutput, Items: items} }
	// A model Codex has no upgrade notice for, which would stop its TUI.
	model, env, host := codexExecEnv(t, "gpt-test", fr.Script{
		fr.Reply(fr.ExecCommand(approve, "")),
		after(fr.ExecCommand(deny, "")),
		after(fr.Text("All done.")),
		{When: func(r *fr.Request) bool { return strings.Contains(strings.Join(r.UserTexts(), "\n"), steer) }, Items: []fr.Item{fr.Text("Steered.")}},
	})
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", host, "--", "codex", "Write the two files.")

	openCodexUntil(tm, "the card for "+approve, e2etest.Has(approve, "[a] approve once"))
	tm.Keys("a")
	tm.WaitArmed("the card for "+deny, e2etest.Has(deny, "[a] approve once"))
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")
	tm.WaitFor("Codex showing the hook's block and ending its turn", e2etest.Has("Blocked by hook", denyMsg, "All done."))
	// Steering from the exec TUI is a message Codex sends to the model.
	tm.Keys("m")
	tm.WaitFor("the steering prompt", e2etest.Has("message for the coder: "))
	tm.TypeText(steer)
	tm.Keys("Enter")
	tm.WaitFor("Codex's reply to the steering", e2etest.Has("Steered."))

	if b, err := os.ReadFile(filepath.Join(dir, "approved.txt")); err != nil || string(b) != "approved\n" {
		t.Errorf("approved.txt = %q (%v): the approved command did not write the project", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "denied.txt")); err == nil {
		t.Error("denied.txt exists: the denied command ran")
	}
	var got []string
	for _, j := range e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir))) {
		if j.Request.Kind == "shell" {
			got = append(got, j.Request.Command+" → "+string(j.Decision.Outcome)+" by "+j.Decision.By)
		}
	}
	if want := []string{approve + " → allow by person", deny + " → deny by person"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("journaled shell decisions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	told := false
	for _, r := range model.Requests() {
		for _, o := range r.LastOutputs() {
			told = told || strings.Contains(o.Text, denyMsg)
		}
	}
	if !told {
		t.Error("the model never heard the person's message")
	}
}

// openCodexUntil gets tm's Codex TUI past its start until cond shows: the
// network cards it raises before any tool call are denied (its TUI fetches
// tips from raw.githubusercontent.com and reaches a loopback port of its
// own; neither is needed), and its folder screen — the project is
// untrusted in the run — is answered "Open restricted" through attach.
func openCodexUntil(tm *e2etest.Tmux, what string, cond func(string) bool) {
	tm.T.Helper()
	openCodex(tm, what, func(s string, armed bool) bool { return armed && cond(s) })
}

// openCodex is openCodexUntil for a cond that is told whether a card is up
// and armed (one that may show without a card).
func openCodex(tm *e2etest.Tmux, what string, cond func(s string, armed bool) bool) {
	tm.T.Helper()
	opened := false
	if e2etest.Until(func() bool {
		s := tm.Screen()
		card := strings.Contains(s, "── APPROVAL ·") // a card's header, armed or still in its key guard
		armed := card && strings.Contains(s, "[a] approve once") && !strings.Contains(s, e2etest.GuardNotice)
		switch {
		case cond(s, armed):
			return true
		case armed && strings.Contains(s, "APPROVAL · net"):
			host := cardHost(s)
			tm.Keys("d")
			// Codex's tip fetch can end before the key lands, and
			// Sentinel withdraws the card of a process that ended:
			// then there is no prompt to answer (CI saw it at load).
			s = tm.WaitFor("the deny message prompt, or the network card for "+host+" withdrawn", func(s string) bool {
				return strings.Contains(s, "message for the coder") || cardHost(s) != host
			})
			if strings.Contains(s, "message for the coder") {
				tm.Keys("Enter")
				tm.WaitFor("the network card for "+host+" answered", func(s string) bool {
					return !strings.Contains(s, "message for the coder") && cardHost(s) != host
				})
			}
		case !opened && !card && strings.Contains(s, "Open restricted"):
			tm.PressUntil("i", "attach mode", e2etest.Has("ATTACHED"))
			tm.Keys("Enter")
			opened = true
		}
		return false
	}) {
		return
	}
	tm.T.Fatalf("never saw %s; screen:\n%s", what, tm.Screen())
}

// cardHost is the host line of the network card on the screen, if any.
func cardHost(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "host ") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// The real Codex in place does real work through its hooks: it tests,
// builds and runs a Go module with the person's Go, the policy lets those
// commands through, and what they print reaches the model.
func TestExecCodexBuildsAndTestsARealGoProject(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	_, dir := e2etest.CalcProject(t)
	// go as found on PATH, as a person's command names it; the program it
	// built runs in a call of its own (built and run in one line, the
	// policy asks: rule shell.write-then-run). A cold build can outlast
	// Codex's wait for output: the model polls the session until it ends.
	script := fr.Script{fr.Reply(fr.FunctionCall("exec_command",
		map[string]any{"cmd": "go test ./... && go build -o calc .", "yield_time_ms": 30000}))}
	for range 20 {
		script = append(script, fr.Turn{When: runningSession, Make: func(r *fr.Request) []fr.Item {
			return []fr.Item{fr.FunctionCall("write_stdin",
				map[string]any{"session_id": sessionOf(r), "chars": "", "yield_time_ms": 30000})}
		}})
	}
	script = append(script,
		fr.Turn{When: exitedOK, Items: []fr.Item{fr.ExecCommand("./calc", "")}},
		fr.Turn{When: fr.AfterOutput, Items: []fr.Item{fr.Text("Tested and built.")}})
	model, env, host := codexExecEnv(t, "gpt-5.5", script)
	// The compiled standard library in the project's build cache, as after
	// the person's first go command there: go still compiles, tests and
	// links the project's own code (what this test checks), not all of std.
	for _, kv := range env {
		if xdg, ok := strings.CutPrefix(kv, "XDG_CACHE_HOME="); ok {
			e2etest.SeedGoCache(t, e2etest.ProjectGoCache(t, xdg, dir))
		}
	}
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--allow-host", host, "--", "codex", "exec", "--skip-git-repo-check", "Test and build it.")
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "calc")); err != nil {
		t.Errorf("the binary Codex built is not in the project: %v\n%s", err, res.Stdout)
	}
	var out string
	for _, r := range model.Requests() {
		for _, o := range r.LastOutputs() {
			out += o.Text
		}
	}
	if !strings.Contains(out, "ok") || !strings.Contains(out, "sum 5") {
		t.Errorf("the model did not get go test's ok and the program's output; it got:\n%s\n%s", out, res.Stdout)
	}
}

// sessionRunning finds the session a still-running command's output names.
var sessionRunning = regexp.MustCompile(`Process running with session ID (\d+)`)

func lastOutput(r *fr.Request) string {
	var s string
	for _, o := range r.LastOutputs() {
		s += o.Text
	}
	return s
}

func runningSession(r *fr.Request) bool { return sessionRunning.MatchString(lastOutput(r)) }

func sessionOf(r *fr.Request) int {
	n, _ := strconv.Atoi(sessionRunning.FindStringSubmatch(lastOutput(r))[1])
	return n
}

func exitedOK(r *fr.Request) bool {
	return strings.Contains(lastOutput(r), "Process exited with code 0")
}
