package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In place, with Sentinel's own provider, the person's rollouts of the
// project are seeded naming it (Codex's `resume --last` inside the run
// lists only its provider's sessions), a seeded rollout the run left alone
// is not written back, and one the run resumed comes back naming the
// person's provider again. Seen failing without SeedRewrite: the seeded
// copy named "openai", which `resume --last` inside skips.
func TestInPlaceSeedsThePersonsSessionsAsTheRunsOwn(t *testing.T) {
	person, ws := t.TempDir(), t.TempDir()
	left := filepath.Join("sessions", "2026", "12", "01", "rollout-a.jsonl")
	resumed := filepath.Join("sessions", "2026", "12", "01", "rollout-b.jsonl")
	for _, rel := range []string{left, resumed} {
		put(t, filepath.Join(person, rel), `{"type":"session_meta","payload":{"id":"`+rel+`","cwd":"`+ws+`","model_provider":"openai"}}`+"\n"+
			`{"type":"turn_context","payload":{"model_provider_id":"openai"}}`+"\n")
	}
	before, _ := os.ReadFile(filepath.Join(person, left))
	state := filepath.Join(t.TempDir(), "codex")
	a := New(Options{Mode: Interactive, Binary: "/usr/bin/true", Sentinel: "/usr/bin/true"})
	if _, err := a.Prepare(RunPaths{Workspace: ws, StateDir: state, PersonDir: person}); err != nil {
		t.Fatal(err)
	}
	if a.plan.ProviderID != ProviderID {
		t.Fatalf("the run's provider is %q, want Sentinel's (the premise)", a.plan.ProviderID)
	}
	for _, rel := range []string{left, resumed} {
		b, _ := os.ReadFile(filepath.Join(state, rel))
		if !strings.Contains(string(b), `"model_provider":"sentinel"`) || !strings.Contains(string(b), `"model_provider_id":"sentinel"`) {
			t.Errorf("the seeded %s does not name the run's provider:\n%s", rel, b)
		}
	}
	f, err := os.OpenFile(filepath.Join(state, resumed), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"turn_context","payload":{"model_provider_id":"sentinel","said":"again"}}` + "\n")
	f.Close()
	if notes := a.WriteBackState(); len(notes) != 0 {
		t.Errorf("notes: %q", notes)
	}
	if b, _ := os.ReadFile(filepath.Join(person, left)); string(b) != string(before) {
		t.Errorf("the rollout the run left alone changed in the person's home:\n%s", b)
	}
	b, _ := os.ReadFile(filepath.Join(person, resumed))
	if !strings.Contains(string(b), `"said":"again"`) || strings.Contains(string(b), `"sentinel"`) {
		t.Errorf("the resumed rollout came back as:\n%s", b)
	}
}

// When the person's CODEX_HOME has Codex's state db, its `resume --last`
// lists what that index holds, which a session copied back is not in: the
// run's end names the exact `codex resume ID` line for each session the
// run started, and only then (no db: --last finds it; a seeded one: it is
// indexed already). Seen failing without resumeNotes (no note).
func TestInPlaceNamesTheResumeLineWhenCodexIndexes(t *testing.T) {
	const id = "01a25225-fa65-7241-8d31-d35ccefcaba0"
	for _, db := range []bool{true, false} {
		person, ws := t.TempDir(), t.TempDir()
		seeded := filepath.Join("sessions", "2026", "12", "01", "rollout-a.jsonl")
		put(t, filepath.Join(person, seeded), `{"type":"session_meta","payload":{"id":"01a25225-0000-7241-8d31-d35ccefcaba0","cwd":"`+ws+`"}}`+"\n")
		if db {
			put(t, filepath.Join(person, "state_5.sqlite"), "")
		}
		state := filepath.Join(t.TempDir(), "codex")
		a := New(Options{Mode: Interactive, Binary: "/usr/bin/true", Sentinel: "/usr/bin/true"})
		if _, err := a.Prepare(RunPaths{Workspace: ws, StateDir: state, PersonDir: person}); err != nil {
			t.Fatal(err)
		}
		put(t, filepath.Join(state, "sessions", "2026", "12", "07", "rollout-"+id+".jsonl"), `{"type":"session_meta","payload":{"id":"`+id+`","cwd":"`+ws+`"}}`+"\n")
		put(t, filepath.Join(state, "sessions", "2026", "12", "07", "rollout-x.jsonl"), `{"type":"session_meta","payload":{"id":"codex resume; rm -rf ~","cwd":"`+ws+`"}}`+"\n")
		notes := strings.Join(a.WriteBackState(), "\n")
		if got := strings.Contains(notes, "`codex resume "+id+"`"); got != db {
			t.Errorf("state db %v: the resume line named %v, want %v:\n%s", db, got, db, notes)
		}
		if strings.Contains(notes, "rm -rf") || strings.Contains(notes, "0000-7241") {
			t.Errorf("a note names something other than the run's own session:\n%s", notes)
		}
	}
}
