package geminicli

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

// Gemini runs git in its checkpoint repository (history/<slug>/.git) with
// that repository's config on every checkpoint: what the coder wrote in
// the run's copy (core.fsmonitor in the config, a hook, the global
// .gitconfig beside it) must not reach the person's, where their own
// gemini would run it on the host; in a project's new directory either.
func TestGeminiCheckpointRepositoryDoesNotComeBack(t *testing.T) {
	real, run := filepath.Join(t.TempDir(), ".gemini"), filepath.Join(t.TempDir(), ".gemini")
	workspace := "/work/proj"
	put(t, filepath.Join(real, "history", "proj", ".project_root"), workspace)
	put(t, filepath.Join(real, "history", "proj", ".git", "config"), "[core]\n\tbare = false\n")
	h, err := keepHistoryFor(real, run, workspace)
	if err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(run, "history", "proj", ".git", "config"), "[core]\n\tfsmonitor = touch /tmp/PWNED\n")
	put(t, filepath.Join(run, "history", "proj", ".git", "hooks", "post-commit"), "#!/bin/sh\ntouch /tmp/PWNED\n")
	put(t, filepath.Join(run, "history", "proj", ".gitconfig"), "[core]\n\tpager = touch /tmp/PWNED\n")
	put(t, filepath.Join(run, "history", "proj", "shell_history"), "ls\n")
	put(t, filepath.Join(run, "history", "proj-1", ".project_root"), "/work/proj")
	put(t, filepath.Join(run, "history", "proj-1", ".git", "config"), "[core]\n\tfsmonitor = touch /tmp/PWNED\n")
	notes := h.writeBack()
	if b, _ := os.ReadFile(filepath.Join(real, "history", "proj", ".git", "config")); string(b) != "[core]\n\tbare = false\n" {
		t.Errorf("the checkpoint repository's config was overwritten: %q", b)
	}
	for _, p := range []string{"proj/.git/hooks/post-commit", "proj/.gitconfig", "proj-1/.git/config"} {
		if _, err := os.Stat(filepath.Join(real, "history", p)); err == nil {
			t.Errorf("the coder's history/%s reached ~/.gemini", p)
		}
	}
	if _, err := os.Stat(filepath.Join(real, "history", "proj", "shell_history")); err != nil {
		t.Errorf("the run's history was not kept: %v", err)
	}
	if all := strings.Join(notes, "\n"); strings.Count(all, "not kept: Gemini CLI runs git") != 3 {
		t.Errorf("notes:\n%s", all)
	}
}
