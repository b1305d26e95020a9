package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
)

// A person at a terminal with the real, interactive Gemini CLI in place:
// `sentinel exec -- gemini -i TASK` in a tmux window, Gemini's own screen in
// the exec TUI, one session for two checks, each a subtest named for what
// it guards (issue 33: it took in TestExecGeminiBackgroundKillerCannotReachTheHooks,
// one Gemini start fewer, every assertion kept):
//
//   - BackgroundKillerCannotReachTheHooks: an approved command's background
//     loop that kills or stops every process of Gemini CLI's hook
//     (killerLoop) cannot reach them (internal/shellscope): each command
//     Gemini starts in place is in its own signal scope, so the next
//     call's card stays up, the person's deny blocks it and it never runs.
//     Gemini lets a call run when its hook's shell is killed, so without
//     the scope this is the hole: seen failing with gemini out of
//     scopedAgents (the loop killed the hook's bash and Gemini ran the
//     asked call).
//   - InteractiveInTmux: commands the policy asks about become the
//     person's cards: the approved one runs in the project, the denied one
//     (git push, after the loop's checks, with the loop still running) does
//     not, and the model hears the person's message. Gemini asks nothing
//     itself.
func TestExecGeminiInteractiveInTmux(t *testing.T) {
	t.Parallel()
	e2etest.NeedGemini(t)
	dir := e2etest.ScratchRepo(t)
	const denyMsg = "no pushes from here"
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model, home := fg.StartWithHome(t, fg.Script{
		fg.Reply(fg.Text("Generating."), fg.ShellCommand("echo generated > gen.txt; ls $DIR", "")),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.ShellCommand(killerLoop("gemini"), "")}},
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.ShellCommand(asked, "")}},
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.ShellCommand("git push origin main", "")}},
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("Generated; the push was refused.")}},
	})
	host := strings.TrimPrefix(model.URL, "http://")
	tm := e2etest.StartSentinel(t, dir, append(model.Env(home), "XDG_CONFIG_HOME="+t.TempDir()),
		"exec", "--allow-host", host, "--", "gemini", "-i", "Generate, start the loop, then push.")
	// waitRequests waits for the model's n-th request (a bound on a hung run).
	waitRequests := func(t *testing.T, n int) {
		deadline := time.After(e2etest.HangBound)
		for len(model.Requests()) < n {
			select {
			case <-model.Changed():
			case <-deadline:
				t.Fatalf("the model got %d requests, want %d; screen:\n%s", len(model.Requests()), n, tm.Screen())
			}
		}
	}

	tm.WaitArmed("the card for the generating command", e2etest.Has("echo generated > gen.txt; ls $DIR", "[a] approve once"))
	tm.Keys("a")
	if !tm.Check(t, "BackgroundKillerCannotReachTheHooks", func(t *testing.T) {
		tm.WaitArmed("the card for the killer loop", e2etest.Has("pkill -STOP", "[a] approve once"))
		tm.Keys("a")
		killerHolds(t, tm, dir, asked)
		waitRequests(t, 4)
		var told bool
		for _, f := range model.Requests()[3].LastFunctionResponses() {
			told = told || (f.IsError() && strings.Contains(f.Output(), "not this one"))
		}
		if !told {
			t.Errorf("the model was not told the person's deny: %+v", model.Requests()[3].LastFunctionResponses())
		}
		killerAfter(t, dir)
	}) {
		t.FailNow() // the rest needs the session to have gone on
	}

	tm.Check(t, "InteractiveInTmux", func(t *testing.T) {
		tm.WaitArmed("the card for git push", e2etest.Has("git push origin main", "[a] approve once"))
		tm.Keys("d")
		tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
		tm.TypeText(denyMsg)
		tm.Keys("Enter")
		waitRequests(t, 5)
		var told bool
		for _, f := range model.Requests()[4].LastFunctionResponses() {
			told = told || (f.IsError() && strings.Contains(f.Output(), "Tool execution blocked") && strings.Contains(f.Output(), denyMsg))
		}
		if !told {
			t.Errorf("the model was not told the push was blocked with the person's message: %+v", model.Requests()[4].LastFunctionResponses())
		}
		tm.WaitFor("the idle signal", e2etest.Has("coder idle", "D coder is done"))
		tm.Keys("D")
		tm.WaitArmed("the done confirmation", e2etest.Has("The coder is done", "[y] yes"))
		tm.Keys("y")
		// The TUI stays while the person reads the end; q leaves it.
		// gen.txt, and the loop's killer.log and killer.err.
		tm.WaitFor("the end of the run", e2etest.Has("in place: 3 file(s) changed", ": done"))
		tm.PressUntil("q", "sentinel to exit", e2etest.Has("SENTINEL-EXITED"))
		s := tm.Screen()
		if !strings.Contains(s, "SENTINEL-EXITED 0") || !strings.Contains(s, "gen.txt") {
			t.Errorf("after the person said the coder is done, want exit 0 and what changed; screen:\n%s", s)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "gen.txt")); string(b) != "generated\n" {
			t.Errorf("gen.txt = %q: the approved command did not run in place", b)
		}
		js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)))
		var got []string
		for _, j := range js {
			got = append(got, j.Request.Adapter+": "+j.Request.Command+" → "+string(j.Decision.Outcome)+" by "+j.Decision.By)
		}
		want := "gemini: echo generated > gen.txt; ls $DIR → allow by person; gemini: " + killerLoop("gemini") + " → allow by person; " +
			"gemini: " + asked + " → deny by person; gemini: git push origin main → deny by person"
		if strings.Join(got, "; ") != want {
			t.Errorf("decisions:\n%s\nwant %s", strings.Join(got, "\n"), want)
		}
	})
}
