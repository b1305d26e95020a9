package codex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Once the person's CODEX_HOME has Codex's state db (made by any direct
// use of Codex 0.171), Codex lists `resume --last` and its resume picker
// from that index, and the index learns of a session only as Codex itself
// writes it, or in its backfill: a scan of the sessions folder it runs at
// start until its backfill_state says "complete", resuming after that
// row's last_watermark (a rollout's path under CODEX_HOME; paths sort in
// time order). A session the run wrote, copied back into the sessions
// folder after the run, is therefore not listed: the person's `codex
// resume --last` went on with an older session.
//
// So Sentinel tells Codex to look again, and Codex does the indexing: the
// backfill is set back to "pending", resuming just before the earliest
// rollout the run brought back (that path less its last byte, which sorts
// right before it). The person's next Codex scans from there and writes
// the thread rows itself, from the rollouts as they are (Codex's own
// rules; rows of later rollouts are written again the same). Sentinel
// writes that one row and nothing else of Codex's database, and only in
// the db of the schema it knows (stateDB), in one transaction, never
// while Codex's own backfill runs (status "running"), and never a file it
// did not find as a regular file there. A database it cannot tell this
// way is left alone and the run's end names the `codex resume ID` line
// instead (resumeNotes).
//
// The sqlite3 program does the write: Codex's db is in WAL mode and
// shared with a Codex that may be running, so only SQLite itself may
// change it (its locking and journal). It is run by absolute path only
// (sqlite3Program, a root-owned file nobody else may write; never from
// PATH), with no ~/.sqliterc (-init /dev/null), in its -safe mode (no
// .shell, no ATTACH), stopping at the first error (-bail), an empty
// environment and a time limit. Where it is missing or anything fails,
// the resume line is named instead. (A SQLite library linked into
// Sentinel was dropped: ~6 MB of binary and a long -race build in every
// test binary, for one UPDATE.)

// stateDB is Codex 0.171's state db in CODEX_HOME.
const stateDB = "state_5.sqlite"

// sqlite3Program is the one sqlite3 Sentinel runs; a var for tests.
var sqlite3Program = "/usr/bin/sqlite3"

// reindexFrom tells the Codex whose CODEX_HOME is real to index the
// sessions folder again from the rollout first (a path under real, "/"
// separated), at its next start.
func reindexFrom(real, first string) error {
	path := filepath.Join(real, stateDB)
	if !filepath.IsAbs(path) {
		return errors.New("not an absolute path")
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if first == "" {
		return errors.New("no rollout")
	}
	mark, err := sqlString(first[:len(first)-1])
	if err != nil {
		return err
	}
	if err := trustedProgram(sqlite3Program); err != nil {
		return fmt.Errorf("sqlite3 not run: %w", err)
	}
	// One IMMEDIATE transaction (the write lock from the start): the row as
	// it was, then the UPDATE, whose WHERE repeats the decision below so a
	// status changed meanwhile is never overwritten, then how many rows it
	// changed. The SELECT is also the schema check: a missing table or
	// column is an error, and -bail stops there (the transaction is rolled
	// back as sqlite3 exits).
	script := ".mode json\n" +
		"BEGIN IMMEDIATE;\n" +
		"SELECT status AS s, typeof(status) AS t FROM backfill_state WHERE id = 1;\n" +
		"UPDATE backfill_state SET status = 'pending', last_watermark = " + mark + ", updated_at = " + strconv.FormatInt(time.Now().Unix(), 10) +
		" WHERE id = 1 AND (status = 'complete' OR (status = 'pending' AND last_watermark >= " + mark + "));\n" +
		"SELECT changes() AS n;\n" +
		"COMMIT;\n"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: "mode=rw"}).String()
	cmd := exec.CommandContext(ctx, sqlite3Program, "-init", "/dev/null", "-safe", "-bail", "-batch", "-cmd", ".timeout 10000", uri)
	cmd.Env = []string{} // nothing of the person's environment
	cmd.Dir = "/"
	cmd.Stdin = strings.NewReader(script)
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("sqlite3: %v: %s", err, strings.TrimSpace(errOut.String()))
	}
	// sqlite3 prints each result as a JSON array of rows; none for no rows.
	type result []struct {
		S, T string
		N    *int
	}
	var rows []result
	for dec := json.NewDecoder(&out); dec.More(); {
		var row result
		if err := dec.Decode(&row); err != nil {
			return fmt.Errorf("sqlite3's output: %w", err)
		}
		rows = append(rows, row)
	}
	if len(rows) != 2 || len(rows[0]) != 1 || len(rows[1]) != 1 || rows[1][0].N == nil {
		return errors.New("its backfill state: not the one row Codex writes")
	}
	st, changed := rows[0][0], *rows[1][0].N
	switch {
	case st.T != "text":
		return fmt.Errorf("backfill status of type %s", st.T)
	case st.S == "running":
		return errors.New("Codex is indexing it now")
	case st.S == "pending" && changed == 0:
		return nil // Codex scans from before it already
	case st.S != "complete" && st.S != "pending":
		return fmt.Errorf("backfill status %q unknown", st.S)
	case changed != 1:
		return fmt.Errorf("%d rows changed", changed)
	}
	return nil
}

// sqlString is s as an SQL string literal: quotes doubled. A NUL, a
// line break or bytes that are not UTF-8 are refused (not a path Codex
// wrote, and the script is read line by line).
func sqlString(s string) (string, error) {
	if strings.ContainsAny(s, "\x00\n\r") || !utf8.ValidString(s) {
		return "", fmt.Errorf("watermark %q cannot be passed", s)
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", nil
}
