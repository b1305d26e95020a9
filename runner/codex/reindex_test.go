package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sqlite3 runs the system's sqlite3 on the state db in home (skipping
// where it is missing) and returns what it printed.
func sqlite3(t *testing.T, home, script string) string {
	t.Helper()
	if err := trustedProgram(sqlite3Program); err != nil {
		t.Skipf("no sqlite3 to make Codex's state db with (CI installs the sqlite3 package): %v", err)
	}
	cmd := exec.Command(sqlite3Program, "-init", "/dev/null", "-bail", filepath.Join(home, stateDB))
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3: %v: %s", err, out)
	}
	return string(out)
}

// stateDBWith makes a CODEX_HOME's state db holding Codex 0.171's
// backfill_state table with the one row given (last "" is NULL).
func stateDBWith(t *testing.T, home, status, last string) {
	t.Helper()
	w := "NULL"
	if last != "" {
		w = "'" + strings.ReplaceAll(last, "'", "''") + "'"
	}
	sqlite3(t, home, `CREATE TABLE backfill_state (id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL, last_watermark TEXT, last_success_at INTEGER, updated_at INTEGER NOT NULL);
PRAGMA journal_mode=WAL;
INSERT INTO backfill_state VALUES (1, '`+status+`', `+w+`, 1, 1);
`)
}

// backfillOf is the backfill row's status and watermark ("" for NULL).
func backfillOf(t *testing.T, home string) (status, last string) {
	t.Helper()
	out := sqlite3(t, home, ".mode ascii\n.separator \"\\t\" \"\\n\"\nSELECT status, coalesce(last_watermark, '') FROM backfill_state WHERE id = 1;\n")
	status, last, _ = strings.Cut(strings.TrimSuffix(out, "\n"), "\t")
	return status, last
}

// When the person's CODEX_HOME has Codex's state db, whose index lists
// `resume --last`, the run's end tells Codex to index again from just
// before the earliest session the run brought back (backfill pending, its
// watermark that path less its last byte), and names no resume line; while
// Codex's own backfill runs, the db is left alone and the line is named.
// Seen failing without reindexFrom: the backfill stayed complete (the
// person's `codex resume --last` went on with an older session).
func TestInPlaceTellsCodexToIndexTheRunsSessions(t *testing.T) {
	const id = "01a25225-fa65-7241-8d31-d35ccefcaba0"
	later := "sessions/2026/12/07/rollout-2026-12-07T20-15-50-" + id + ".jsonl"
	earlier := "sessions/2026/12/07/rollout-2026-12-07T20-15-40-01a25225-0000-7241-8d31-d35ccefcaba0.jsonl"
	for _, c := range []struct {
		status, last string
		want         string // the status after
		told         bool
	}{
		{"complete", "sessions/2026/12/08/rollout-x.jsonl", "pending", false},
		{"complete", "", "pending", false},
		{"running", "", "running", true},
	} {
		person, ws := t.TempDir(), t.TempDir()
		stateDBWith(t, person, c.status, c.last)
		state := filepath.Join(t.TempDir(), "codex")
		a := New(Options{Mode: Interactive, Binary: "/usr/bin/true", Sentinel: "/usr/bin/true"})
		if _, err := a.Prepare(RunPaths{Workspace: ws, StateDir: state, PersonDir: person}); err != nil {
			t.Fatal(err)
		}
		for _, rel := range []string{later, earlier} {
			sid := strings.TrimSuffix(rel[len(rel)-42:], ".jsonl")
			put(t, filepath.Join(state, filepath.FromSlash(rel)), `{"type":"session_meta","payload":{"id":"`+sid+`","cwd":"`+ws+`"}}`+"\n")
		}
		notes := strings.Join(a.WriteBackState(), "\n")
		status, mark := backfillOf(t, person)
		if status != c.want {
			t.Errorf("%s %q: backfill status %q after, want %q", c.status, c.last, status, c.want)
		}
		if c.want == "pending" && mark != earlier[:len(earlier)-1] {
			t.Errorf("%s %q: watermark %q, want just before %s", c.status, c.last, mark, earlier)
		}
		if got := strings.Contains(notes, "`codex resume "+id+"`"); got != c.told {
			t.Errorf("%s %q: the resume line named %v, want %v:\n%s", c.status, c.last, got, c.told, notes)
		}
	}
}

// Where the sqlite3 program is missing, or is one Sentinel does not trust
// (here: one others may write, which would have left a mark had it run),
// the person's db is left alone and the run's end names the resume line.
// Seen failing with the program check taken out: the script ran.
func TestInPlaceNamesTheResumeLineWithoutSqlite3(t *testing.T) {
	const id = "01a25225-fa65-7241-8d31-d35ccefcaba0"
	rel := "sessions/2026/12/07/rollout-2026-12-07T20-15-50-" + id + ".jsonl"
	dir := t.TempDir()
	writable := filepath.Join(dir, "sqlite3")
	ran := filepath.Join(dir, "ran")
	if err := os.WriteFile(writable, []byte("#!/bin/sh\ntouch "+ran+"\n"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(writable, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	defer func(p string) { sqlite3Program = p }(sqlite3Program)
	for _, prog := range []string{filepath.Join(dir, "missing"), writable} {
		sqlite3Program = prog
		person, ws := t.TempDir(), t.TempDir()
		put(t, filepath.Join(person, stateDB), "left alone")
		state := filepath.Join(t.TempDir(), "codex")
		a := New(Options{Mode: Interactive, Binary: "/usr/bin/true", Sentinel: "/usr/bin/true"})
		if _, err := a.Prepare(RunPaths{Workspace: ws, StateDir: state, PersonDir: person}); err != nil {
			t.Fatal(err)
		}
		put(t, filepath.Join(state, filepath.FromSlash(rel)), `{"type":"session_meta","payload":{"id":"`+id+`","cwd":"`+ws+`"}}`+"\n")
		notes := strings.Join(a.WriteBackState(), "\n")
		if !strings.Contains(notes, "`codex resume "+id+"`") {
			t.Errorf("%s: the resume line not named:\n%s", prog, notes)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Fatalf("%s was run", prog)
		}
		if b, _ := os.ReadFile(filepath.Join(person, stateDB)); string(b) != "left alone" {
			t.Errorf("%s: the db changed: %q", prog, b)
		}
	}
}

// The watermark reaches the db as it was, quotes and all; one sqlite3
// could not be handed as a line (a line break) is refused, the db left
// alone. Seen failing with the quotes not doubled: sqlite3's syntax error.
func TestReindexPassesTheWatermarkAsItIs(t *testing.T) {
	home := t.TempDir()
	stateDBWith(t, home, "complete", "")
	odd := "sessions/2026/12/07/it's -- x'); DROP TABLE backfill_state; --.jsonl"
	if err := reindexFrom(home, odd); err != nil {
		t.Fatal(err)
	}
	if status, mark := backfillOf(t, home); status != "pending" || mark != odd[:len(odd)-1] {
		t.Errorf("status %q watermark %q, want pending %q", status, mark, odd[:len(odd)-1])
	}
	other := t.TempDir()
	stateDBWith(t, other, "complete", "")
	if err := reindexFrom(other, "sessions/a\nb.jsonl"); err == nil {
		t.Error("a watermark with a line break was passed")
	}
	if status, _ := backfillOf(t, other); status != "complete" {
		t.Errorf("status %q after a refused watermark", status)
	}
}
