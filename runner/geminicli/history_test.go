package geminicli

import (
	"os"
	"path/filepath"
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

// In place, Gemini's chats for the project travel into the run's home and
// what the run added comes back, so `gemini --resume` finds it next time;
// another project's history is neither shown nor touched, and a new
// project's directory comes back only under a name the person does not
// already use (31.7).
func TestGeminiHistoryIsKeptAcrossInPlaceRuns(t *testing.T) {
	real, run := filepath.Join(t.TempDir(), ".gemini"), filepath.Join(t.TempDir(), ".gemini")
	workspace := "/work/proj"
	put(t, filepath.Join(real, "tmp", "proj", ".project_root"), workspace+"\n")
	put(t, filepath.Join(real, "tmp", "proj", "chats", "session-1.json"), `{"old":true}`)
	put(t, filepath.Join(real, "history", "proj", ".project_root"), workspace)
	put(t, filepath.Join(real, "tmp", "other", ".project_root"), "/elsewhere")
	put(t, filepath.Join(real, "tmp", "other", "chats", "secret.json"), "another project's")

	h, err := keepHistoryFor(real, run, workspace)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(run, "tmp", "proj", "chats", "session-1.json")); err != nil || string(b) != `{"old":true}` {
		t.Fatalf("the project's chat was not seeded: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(run, "tmp", "other")); err == nil {
		t.Error("another project's history was copied into the run")
	}
	// The run: a new session, and a directory under a name the person
	// uses for another project.
	put(t, filepath.Join(run, "tmp", "proj", "chats", "session-2.json"), `{"new":true}`)
	put(t, filepath.Join(run, "tmp", "other", ".project_root"), workspace)
	put(t, filepath.Join(run, "tmp", "other", "chats", "secret.json"), "overwritten")
	put(t, filepath.Join(run, "tmp", "other", "chats", "planted.json"), "into another project's history")
	h.writeBack()
	if _, err := os.Stat(filepath.Join(real, "tmp", "other", "chats", "planted.json")); err == nil {
		t.Error("the run added a file to another project's history")
	}
	if b, err := os.ReadFile(filepath.Join(real, "tmp", "proj", "chats", "session-2.json")); err != nil || string(b) != `{"new":true}` {
		t.Errorf("the run's session was not kept: %q %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "tmp", "other", "chats", "secret.json")); string(b) != "another project's" {
		t.Errorf("another project's history was overwritten: %q", b)
	}

	// A project Gemini never saw: its new directory comes back.
	real2, run2 := filepath.Join(t.TempDir(), ".gemini"), filepath.Join(t.TempDir(), ".gemini")
	h2, err := keepHistoryFor(real2, run2, workspace)
	if err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(run2, "tmp", "proj-1", ".project_root"), workspace)
	put(t, filepath.Join(run2, "tmp", "proj-1", "chats", "s.json"), "first")
	h2.writeBack()
	if b, err := os.ReadFile(filepath.Join(real2, "tmp", "proj-1", "chats", "s.json")); err != nil || string(b) != "first" {
		t.Errorf("a new project's first session was not kept: %q %v", b, err)
	}
}
