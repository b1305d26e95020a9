package codex

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
)

// TestRealCodexInTmux is a person at a terminal with the real Codex
// (app-server) under `sentinel run --coder codex "task"` in a 200×60 tmux
// window, its model a scripted fake Responses API. The model asks for:
//
//  1. ./scripts/gen.sh one — a card; the person presses r and confirms the
//     chooser's second breadth ("starting with: ./scripts/gen.sh one …"),
//     so the run holds a template bound to gen.sh's content. Codex is
//     answered accept, not acceptForSession: a script could be rewritten,
//     so its repeats must keep coming to Sentinel;
//  2. ./scripts/gen.sh one again, then ./scripts/gen.sh one more — Codex
//     asks about both and the run's template answers: no card for either;
//  3. ./scripts/deploy.sh --prod — the person presses d, types a message,
//     Enter: Codex declines it and the model hears the message;
//  4. an apply_patch adding hello.txt (policy allows writes in the
//     workspace) and .vscode/settings.json (a file that runs code later:
//     a card, the person presses a);
//
// then says it is done. The run's review screen lands it with a, y. The
// journal's decisions, what the scripts left behind and what landed on
// sentinel/<id> must all tell the same story, and the person's checkout
// must be untouched.
func TestRealCodexInTmux(t *testing.T) {
	t.Parallel()
	e2etest.NeedCodex(t)
	dir := e2etest.CodexScriptRepo(t)
	before := e2etest.Checkout(t, dir)

	const (
		gen     = "./scripts/gen.sh one"
		genMore = "./scripts/gen.sh one more"
		deploy  = "./scripts/deploy.sh --prod"
		denyMsg = "never deploy from a sandbox run"
	)
	patch := "*** Begin Patch\n" +
		"*** Add File: hello.txt\n+hello from codex\n" +
		"*** Add File: .vscode/settings.json\n+{\"editor.tabSize\": 4}\n" +
		"*** End Patch\n"
	after := func(items ...fr.Item) fr.Turn { return fr.Turn{When: fr.AfterOutput, Items: items} }
	model, err := fr.Start(fr.Script{
		fr.Reply(fr.Text("Generating."), fr.ExecCommand(gen, "")),
		after(fr.ExecCommand(gen, "")),
		after(fr.ExecCommand(genMore, "")),
		after(fr.Text("Deploying."), fr.ExecCommand(deploy, "")),
		after(fr.CustomToolCall("apply_patch", patch)),
		after(fr.Text("All done: generated, not deployed, hello.txt written.")),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })

	env := []string{"HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + model.BaseURL(),
		"OPENAI_API_KEY=sk-test-fake", "SENTINEL_CODEX_MODEL=gpt-5.5"}
	tm := e2etest.StartSentinel(t, dir, env, "run", "--sandbox", "off", "--coder", "codex", "--allow-host", strings.TrimPrefix(model.URL, "http://"),
		"Generate one, deploy to prod, then write hello.txt.")

	// 1. Approve and remember, one breadth wider than the exact command.
	tm.WaitArmed("the card for "+gen, e2etest.Has(gen, "[a] approve once"))
	tm.Keys("r")
	tm.WaitFor("the remember chooser", e2etest.Has("REMEMBER · how broad?", "starting with: "+gen+" …"))
	tm.Keys("Down")
	tm.WaitFor("the prefix breadth selected", e2etest.Has("▸ starting with: "+gen+" …"))
	tm.Keys("Enter")

	// 2. Both repeats run without a card; 3. the deploy gets one.
	tm.WaitArmed("the card for "+deploy, e2etest.Has(deploy, "[a] approve once"))
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")

	// 4. The file change that runs code later gets a card.
	tm.WaitArmed("the card for .vscode/settings.json", e2etest.Has(".vscode/settings.json", "[a] approve once"))
	tm.Keys("a")

	// The turn ends; the review screen lands the work (gen.log, hello.txt and
	// the flagged settings file).
	tm.WaitArmed("the review screen", e2etest.Has("[a] approve: land", "hello.txt", ".vscode/settings.json"))
	tm.Keys("a")
	tm.WaitFor("the landing confirmation", e2etest.Has("Land 3 of 3 file(s)", "⚑ includes .vscode/settings.json"))
	tm.Keys("y")
	tm.WaitFor("the run's end in the status bar", e2etest.Has("run landed"))
	tm.Keys("q")
	if s := tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED")); !strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Errorf("sentinel exited with an error:\n%s", s)
	}

	id := e2etest.LastRun(t, dir)
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, id))
	ws := e2etest.WorkspaceOf(js)
	type want struct {
		kind, what string
		allowed    bool
		by         string // exact, or a prefix ending in ':'
	}
	wants := []want{
		{"shell", gen, true, "person"},
		{"shell", gen, true, "template:"},
		{"shell", genMore, true, "template:"},
		{"shell", deploy, false, "person"},
		{"write", ".vscode/settings.json", true, "person"},
		{"write", "hello.txt", true, "policy:"},
	}
	ok := len(js) == len(wants)
	if ok {
		// The two writes are one patch; Codex lists its files in no fixed order.
		sort.Slice(js[4:], func(a, b int) bool { return js[4+a].Request.Path < js[4+b].Request.Path })
	}
	for i := 0; ok && i < len(wants); i++ {
		w, j := wants[i], js[i]
		what := j.Request.Command
		if w.kind == "write" {
			what = strings.TrimPrefix(j.Request.Path, ws+string(filepath.Separator))
		}
		by := j.Decision.By == w.by || strings.HasSuffix(w.by, ":") && strings.HasPrefix(j.Decision.By, w.by)
		ok = string(j.Request.Kind) == w.kind && what == w.what && j.Decision.Allowed() == w.allowed && by
	}
	if !ok {
		t.Fatalf("journaled approvals:\n%swant (the writes sorted by path): %+v", e2etest.Describe(js), wants)
	}
	// The grant's breadth shows in what it covered: genMore, answered by
	// the template (checked above).
	if !js[0].Decision.Remember {
		t.Errorf("the first approval was not remembered: %s", e2etest.JSONOf(js[0].Decision))
	}
	if js[3].Decision.Message != denyMsg {
		t.Errorf("the deny carries message %q, want %q", js[3].Decision.Message, denyMsg)
	}

	// The model heard the decline and the person's message, word for word,
	// in the request that answered the deploy call.
	var told, declined bool
	for _, r := range model.Requests() {
		outs := r.LastOutputs()
		if len(outs) != 1 || !strings.Contains(callArgs(r, outs[0].CallID), "deploy.sh") {
			continue
		}
		// Codex's own output for a declined command (0.171.0: `exec_command
		// failed: … Rejected("rejected by user")`) does not carry the
		// message; the steering message queued before the decline does.
		declined = strings.Contains(outs[0].Text, "rejected") && !strings.Contains(outs[0].Text, "deployed")
		for _, u := range r.UserTexts() {
			told = told || strings.Contains(u, denyMsg) && strings.Contains(u, deploy)
		}
	}
	if !told || !declined {
		t.Errorf("the request answering the deploy call: told the message %v, output says rejected %v", told, declined)
	}

	// What ran and what landed agree with the journal: gen.sh ran three
	// times (twice exactly, once with "more"), deploy.sh never, and both
	// new files are on the branch.
	branch := "sentinel/" + id
	for path, body := range map[string]string{
		"gen.log":               "generated one\ngenerated one\ngenerated one more",
		"hello.txt":             "hello from codex",
		".vscode/settings.json": `{"editor.tabSize": 4}`,
	} {
		if got := e2etest.Git(t, dir, "show", branch+":"+path); got != body {
			t.Errorf("%s on %s = %q, want %q", path, branch, got, body)
		}
	}
	files := e2etest.Git(t, dir, "diff", "--name-only", "HEAD", branch)
	if strings.Contains(files, "deployed") {
		t.Errorf("the denied deploy ran: %s has\n%s", branch, files)
	}
	if p := e2etest.PatchOf(dir, id); strings.Contains(p, "deployed") {
		t.Errorf("the run's patch holds the denied deploy's output:\n%s", p)
	}
	if after := e2etest.Checkout(t, dir); after != before {
		t.Errorf("the person's checkout changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	for _, f := range []string{"gen.log", "hello.txt", "deployed.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s appeared in the person's checkout", f)
		}
	}
}

// callArgs is the arguments of the call with callID in r's input.
func callArgs(r *fr.Request, callID string) string {
	for _, it := range r.Input {
		if it.CallID == callID && !it.IsOutput() {
			return it.Arguments
		}
	}
	return ""
}
