package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestPersonMessageGoesThroughTheSupervisor: with a supervisor, what the
// person types at `m` goes to the model, which decides what the coder is
// told and keeps a lasting rule as a standing decision. The first message
// is relayed in context; the second reaches a model that answers garbage, so
// the person's words go to the coder as typed rather than being lost.
func TestPersonMessageGoesThroughTheSupervisor(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "listen.toml")
	writeFile(t, scenario, `
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

	tm := startTmux(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir()},
		"run", "--coder", "demo", "--scenario", scenario, "--preset", "everyday",
		"--supervisor", "openai", "--supervisor-url", model.URL, "--supervisor-model", "gpt-fake",
		"Write an HTTP client.")
	tm.waitFor("the coder waiting", has("waiting up to 1m30s for guidance"))
	tm.keys("m")
	tm.waitFor("the message prompt", has("message (the supervisor passes it on)"))
	tm.typeText("no new deps please")
	tm.keys("Enter")
	tm.waitFor("the relayed message at the coder", has("Steering received", "write the HTTP client with net/http"))

	tm.keys("m")
	tm.waitFor("the message prompt again", has("message (the supervisor passes it on)"))
	tm.typeText("and keep it short")
	tm.keys("Enter")
	tm.waitFor("the message as typed at the coder", has(`Steering received: "and keep it short"`))

	tm.landFromReview(1)

	reqs := modelTurns(t, model)
	if len(reqs) != 2 || !strings.Contains(reqs[0].UserText(), "no new deps please") || !strings.Contains(reqs[0].UserText(), "Write an HTTP client.") {
		t.Fatalf("the model got %d requests; want two relay turns carrying the task and the person's message", len(reqs))
	}
	if !strings.Contains(reqs[1].UserText(), "From the person (these override everything else):\n- No new dependencies.") {
		t.Errorf("the second turn does not carry the standing decision:\n%s", reqs[1].UserText())
	}
	id := lastRun(t, dir)
	var kinds []string
	var steers []string
	for _, ev := range runEvents(t, dir, id) {
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
