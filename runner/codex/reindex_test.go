package codex

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// stateDBWith makes a CODEX_HOME's state db holding Codex 0.171's
// backfill_state table with the one row given.
func stateDBWith(t *testing.T, home, status string, last any) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, stateDB))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE backfill_state (id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL, last_watermark TEXT, last_success_at INTEGER, updated_at INTEGER NOT NULL)",
		"PRAGMA journal_mode=WAL",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("INSERT INTO backfill_state VALUES (1, ?, ?, 1, 1)", status, last); err != nil {
		t.Fatal(err)
	}
}

func backfillOf(t *testing.T, home string) (status string, last sql.NullString) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(home, stateDB))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("SELECT status, last_watermark FROM backfill_state WHERE id = 1").Scan(&status, &last); err != nil {
		t.Fatal(err)
	}
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
		var last any
		if c.last != "" {
			last = c.last
		}
		stateDBWith(t, person, c.status, last)
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
		if c.want == "pending" && mark.String != earlier[:len(earlier)-1] {
			t.Errorf("%s %q: watermark %q, want just before %s", c.status, c.last, mark.String, earlier)
		}
		if got := strings.Contains(notes, "`codex resume "+id+"`"); got != c.told {
			t.Errorf("%s %q: the resume line named %v, want %v:\n%s", c.status, c.last, got, c.told, notes)
		}
	}
}
