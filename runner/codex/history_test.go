package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func put(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// In place, Codex's CODEX_HOME starts with the project's rollouts and
// their prompt history, and a session the run starts reaches the person's
// ~/.codex after it (codex resume finds it); another project's stay out.
func TestInPlaceKeepsCodexHistory(t *testing.T) {
	person, ws := t.TempDir(), t.TempDir()
	mine := filepath.Join("sessions", "2026", "12", "01", "rollout-a.jsonl")
	theirs := filepath.Join("sessions", "2026", "12", "01", "rollout-b.jsonl")
	put(t, filepath.Join(person, mine), `{"type":"session_meta","payload":{"id":"a","cwd":"`+ws+`"}}`+"\n")
	put(t, filepath.Join(person, theirs), `{"type":"session_meta","payload":{"id":"b","cwd":"/elsewhere"}}`+"\n")
	put(t, filepath.Join(person, "history.jsonl"), `{"session_id":"a","ts":1,"text":"mine"}`+"\n"+`{"session_id":"b","ts":2,"text":"theirs"}`+"\n")
	state := filepath.Join(t.TempDir(), "codex")
	a := New(Options{Mode: Interactive, Binary: "/usr/bin/true", Sentinel: "/usr/bin/true"})
	if _, err := a.Prepare(RunPaths{Workspace: ws, StateDir: state, PersonDir: person}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(state, mine)); err != nil {
		t.Errorf("the project's rollout is not in CODEX_HOME: %v", err)
	}
	if _, err := os.Stat(filepath.Join(state, theirs)); err == nil {
		t.Error("another project's rollout was copied in")
	}
	if h, _ := os.ReadFile(filepath.Join(state, "history.jsonl")); strings.Contains(string(h), "theirs") || !strings.Contains(string(h), "mine") {
		t.Errorf("seeded history: %s", h)
	}
	added := filepath.Join("sessions", "2026", "12", "05", "rollout-c.jsonl")
	put(t, filepath.Join(state, added), `{"type":"session_meta","payload":{"id":"c","cwd":"`+ws+`","model_provider":"sentinel","text":"say \"model_provider\":\"sentinel\""}}`+"\n"+
		`{"type":"turn_context","payload":{"thread_settings":{"model_provider_id":"sentinel"}}}`+"\n")
	if notes := a.WriteBackState(); len(notes) != 0 {
		t.Errorf("notes: %q", notes)
	}
	b, err := os.ReadFile(filepath.Join(person, added))
	if err != nil {
		t.Fatalf("the run's session did not reach the person's CODEX_HOME: %v", err)
	}
	// It names the provider the person's own Codex uses (its resume --last
	// lists only those sessions), not Sentinel's; a string value is kept.
	if want := `"model_provider":"openai","text":"say \"model_provider\":\"sentinel\""`; !strings.Contains(string(b), want) ||
		!strings.Contains(string(b), `"model_provider_id":"openai"`) {
		t.Errorf("the kept rollout still names Sentinel's provider:\n%s", b)
	}
}
