package agents

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
)

// TestRealGeminiACPInTmux is a person at a terminal with the real Gemini CLI
// as an ACP agent: `sentinel run --coder acp "task" -- gemini --acp` in a
// tmux window. The agent's permission requests become cards: the person
// approves ./scripts/gen.sh (it runs) and denies ./scripts/deploy.sh with a
// message (it does not run, and the agent hears the message after its
// turn); the review screen lands the work.
func TestRealGeminiACPInTmux(t *testing.T) {
	t.Parallel()
	e2etest.NeedGemini(t)
	dir := e2etest.CodexScriptRepo(t)
	before := e2etest.Checkout(t, dir)
	const denyMsg = "no deploys from a sandbox"
	model, home := fg.StartWithHome(t, fg.Script{
		fg.Reply(fg.Text("Generating."), fg.ShellCommand("./scripts/gen.sh acp", "")),
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.ShellCommand("./scripts/deploy.sh --prod", "")}},
		{When: fg.AfterFunctionResponse, Items: []fg.Item{fg.Text("Generated; deploy was refused.")}},
		fg.Reply(fg.Text("Understood, no deploy.")),
	})
	host := strings.TrimPrefix(model.URL, "http://")
	tm := e2etest.StartSentinel(t, dir, append(model.Env(home), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "acp", "--allow-host", host, "Generate, then deploy.", "--", "gemini", "--acp")

	tm.WaitArmed("the card for gen.sh", e2etest.Has("./scripts/gen.sh acp", "[a] approve once"))
	tm.Keys("a") // once: a second press could answer the next card
	tm.WaitArmed("the card for deploy.sh", e2etest.Has("./scripts/deploy.sh --prod", "[a] approve once"))
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")

	tm.LandFromReview(1)

	id := e2etest.LastRun(t, dir)
	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, id))
	var got []string
	for _, j := range js {
		if j.Request.Adapter == "acp" && j.Request.Command != "" {
			got = append(got, j.Request.Command+" → "+string(j.Decision.Outcome)+" by "+j.Decision.By)
		}
	}
	want := "./scripts/gen.sh acp → allow by person; ./scripts/deploy.sh --prod → deny by person"
	if strings.Join(got, "; ") != want {
		t.Errorf("decisions:\n%s\nwant %s", strings.Join(got, "\n"), want)
	}
	if log := e2etest.Git(t, dir, "show", "sentinel/"+id+":gen.log"); log != "generated acp" {
		t.Errorf("landed gen.log = %q", log)
	}
	if files := e2etest.Git(t, dir, "ls-tree", "-r", "--name-only", "sentinel/"+id); strings.Contains(files, "deployed.txt") {
		t.Error("the denied deploy ran and landed")
	}
	var told bool
	for _, r := range model.Requests() {
		for _, u := range r.UserTexts() {
			if strings.Contains(u, denyMsg) {
				told = true
			}
		}
	}
	if !told {
		t.Error("the agent never heard the person's message")
	}
	if after := e2etest.Checkout(t, dir); after != before {
		t.Error("the person's checkout changed")
	}
}
