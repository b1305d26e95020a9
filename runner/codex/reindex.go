package codex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite", pure Go
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
// A SQLite library in pure Go (modernc.org/sqlite) does the write: Codex's
// db is in WAL mode and shared with a Codex that may be running, so only
// SQLite itself may change it (its locking and journal); the sqlite3
// program from PATH is not run on the host, and cgo is not used.

// stateDB is Codex 0.171's state db in CODEX_HOME.
const stateDB = "state_5.sqlite"

// reindexFrom tells the Codex whose CODEX_HOME is real to index the
// sessions folder again from the rollout first (a path under real, "/"
// separated), at its next start.
func reindexFrom(real, first string) error {
	path := filepath.Join(real, stateDB)
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
	mark := first[:len(first)-1]
	dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: "mode=rw&_pragma=busy_timeout(10000)&_txlock=immediate"}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var status string
	var last sql.NullString
	if err := tx.QueryRowContext(ctx, "SELECT status, last_watermark FROM backfill_state WHERE id = 1").Scan(&status, &last); err != nil {
		return fmt.Errorf("its backfill state: %w", err)
	}
	switch {
	case status == "running":
		return errors.New("Codex is indexing it now")
	case status == "pending" && (!last.Valid || last.String < mark):
		return nil // Codex scans from before it already
	case status != "complete" && status != "pending":
		return fmt.Errorf("backfill status %q unknown", status)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE backfill_state SET status = 'pending', last_watermark = ?, updated_at = ? WHERE id = 1", mark, time.Now().Unix()); err != nil {
		return err
	}
	return tx.Commit()
}
