package agentutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// What a run adds to or changes in the kept directories and line files
// reaches the person's state after it; links never do, a file the person
// changed meanwhile is left as they have it, and only the kept lines go in.
func TestKeptStateWritesBackWhatTheRunAdded(t *testing.T) {
	real, run := t.TempDir(), t.TempDir()
	write(t, filepath.Join(real, "projects", "p", "old.jsonl"), "old\n")
	write(t, filepath.Join(real, "projects", "p", "theirs.jsonl"), "theirs\n")
	write(t, filepath.Join(real, "projects", "other", "secret.jsonl"), "other project\n")
	write(t, filepath.Join(real, "history.jsonl"), `{"project":"/p","display":"a"}`+"\n"+`{"project":"/other","display":"b"}`+"\n")
	k := NewKeptState(real, run)
	if err := k.SeedDir(filepath.Join("projects", "p")); err != nil {
		t.Fatal(err)
	}
	if err := k.SeedLines("history.jsonl", func(l []byte) bool { return strings.Contains(string(l), `"/p"`) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(run, "projects", "other")); err == nil {
		t.Fatal("another project's history was copied into the run")
	}
	if got := readString(t, filepath.Join(run, "history.jsonl")); strings.Contains(got, "/other") || !strings.Contains(got, `"a"`) {
		t.Fatalf("seeded history: %q", got)
	}

	// The run: a new session, a session continued, a link planted, a line added.
	write(t, filepath.Join(run, "projects", "p", "new.jsonl"), "new\n")
	write(t, filepath.Join(run, "projects", "p", "old.jsonl"), "old\nmore\n")
	write(t, filepath.Join(run, "projects", "p", "theirs.jsonl"), "run's\n")
	os.Symlink(filepath.Join(run, "projects", "p", "new.jsonl"), filepath.Join(run, "projects", "p", "link.jsonl"))
	f, _ := os.OpenFile(filepath.Join(run, "history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"project":"/p","display":"c"}` + "\nnot json\n")
	f.Close()
	// Meanwhile the person used the agent directly on one session.
	write(t, filepath.Join(real, "projects", "p", "theirs.jsonl"), "theirs\nand more of theirs\n")

	notes := k.WriteBack()
	if got := readString(t, filepath.Join(real, "projects", "p", "new.jsonl")); got != "new\n" {
		t.Errorf("new session: %q", got)
	}
	if got := readString(t, filepath.Join(real, "projects", "p", "old.jsonl")); got != "old\nmore\n" {
		t.Errorf("continued session: %q", got)
	}
	if got := readString(t, filepath.Join(real, "projects", "p", "theirs.jsonl")); got != "theirs\nand more of theirs\n" {
		t.Errorf("the person's own change was overwritten: %q", got)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "changed outside the run") {
		t.Errorf("notes: %q", notes)
	}
	if _, err := os.Lstat(filepath.Join(real, "projects", "p", "link.jsonl")); err == nil {
		t.Error("a link the run planted reached the person's state")
	}
	want := `{"project":"/p","display":"a"}` + "\n" + `{"project":"/other","display":"b"}` + "\n" + `{"project":"/p","display":"c"}` + "\n"
	if got := readString(t, filepath.Join(real, "history.jsonl")); got != want {
		t.Errorf("history: %q", got)
	}
}

// A note names a file the coder named: an escape or a newline in that
// name is spelled, not sent to the person's terminal (h/ipatk14).
func TestKeptStateNotesSpellTheCodersNames(t *testing.T) {
	real, run := t.TempDir(), t.TempDir()
	k := NewKeptState(real, run)
	k.Dir("mem")
	k.Told("mem", "read as instructions")
	write(t, filepath.Join(run, "mem", "x\x1b[2J\nsentinel: nothing kept.md"), "more\n")
	notes := k.WriteBack()
	if len(notes) != 1 || strings.ContainsAny(notes[0], "\x1b\n") {
		t.Errorf("notes: %q", notes)
	}
}
