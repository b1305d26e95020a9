package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestPersonMessageGoesThroughTheSupervisor: with a supervisor, what the
// person types at `m` goes to the model, which decides what the coder is
// told and keeps a lasting rule as a standing decision. The first message
// is relayed in context; the second reaches a model that answers garbage, so
// the person's words go to the coder as typed rather than being lost.
func TestPersonMessageGoesThroughTheSupervisor(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "listen.toml")
	e2etest.WriteFile(t, scenario, `
name = "listen"
[[steps]]
say = "Working on the client."
[[steps]]
await = "90s"
[[steps]]
await = "90s"
[[steps]]
await = "5s" # keeps the last acknowledgement on screen long enough to read
[[steps]]
write = "client.go"
content = "package greet\n"
[[steps]]
done = "client written"
`)
	const relayed = "The person says: add no new dependencies; write the HTTP client with net/http."
	model, err := fakeopenai.Start(fakeopenai.Probe(),
		fakeopenai.Reply{Content: `{"to_coder":"` + relayed + `","to_person":"","standing_decision":"No new dependencies.","reason":"a lasting rule"}`},
		fakeopenai.Reply{Content: "I will pass that on."},
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { model.Close() })

	tm := e2etest.StartSentinel(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir()},
		"run", "--coder", "demo", "--scenario", scenario, "--preset", "everyday",
		"--supervisor", "openai", "--supervisor-url", model.URL, "--supervisor-model", "gpt-fake",
		"Write an HTTP client.")
	tm.WaitFor("the coder waiting", e2etest.Has("waiting up to 1m30s for guidance"))
	tm.Keys("m")
	tm.WaitFor("the message prompt", e2etest.Has("message (the supervisor passes it on)"))
	tm.TypeText("no new deps please")
	tm.Keys("Enter")
	tm.WaitFor("the relayed message at the coder", e2etest.Has("Steering received", "write the HTTP client with net/http"))

	tm.Keys("m")
	tm.WaitFor("the message prompt again", e2etest.Has("message (the supervisor passes it on)"))
	tm.TypeText("and keep it short")
	tm.Keys("Enter")
	tm.WaitFor("the message as typed at the coder", e2etest.Has(`Steering received: "and keep it short"`))

	tm.LandFromReview(1)

	reqs := e2etest.ModelTurns(t, model)
	if len(reqs) != 2 || !strings.Contains(reqs[0].UserText(), "no new deps please") || !strings.Contains(reqs[0].UserText(), "Write an HTTP client.") {
		t.Fatalf("the model got %d requests; want two relay turns carrying the task and the person's message", len(reqs))
	}
	if !strings.Contains(reqs[1].UserText(), "From the person (these override everything else):\n- No new dependencies.") {
		t.Errorf("the second turn does not carry the standing decision:\n%s", reqs[1].UserText())
	}
	id := e2etest.LastRun(t, dir)
	var kinds []string
	var steers []string
	for _, ev := range e2etest.RunEvents(t, dir, id) {
		switch {
		case ev.Lane == journal.Supervisor:
			kinds = append(kinds, string(ev.Kind))
		case ev.Lane == journal.Coder && ev.Kind == "steer":
			steers = append(steers, ev.Text)
		}
	}
	want := []string{"person", "relay", "standing", "to-coder", "person", "relay", "relay-failed"}
	if got := strings.Join(filterKinds(kinds, want), ","); got != strings.Join(want, ",") {
		t.Errorf("supervisor lane kinds = %v, want %v in order", kinds, want)
	}
	if strings.Join(steers, "|") != relayed+"|and keep it short" {
		t.Errorf("the coder was told %q", steers)
	}
	dec, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "DECISIONS.md"))
	if err != nil || !strings.Contains(string(dec), "## Standing decisions from the person\n\n- No new dependencies.") {
		t.Errorf("DECISIONS.md lacks the standing decision (%v):\n%s", err, dec)
	}
}

// filterKinds keeps the kinds that are in want, in order.
func filterKinds(kinds, want []string) []string {
	keep := map[string]bool{}
	for _, w := range want {
		keep[w] = true
	}
	var out []string
	for _, k := range kinds {
		if keep[k] {
			out = append(out, k)
		}
	}
	return out
}
