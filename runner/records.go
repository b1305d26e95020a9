package runner

// Run records are signed. Everything under .sentinel/ may have been written
// by a coder (a workspace lives at .sentinel/work/<id>, and a run without a
// sandbox can write anywhere), so a run's meta.json and a pending apply's
// record are kept as an envelope {"record": …, "sig": …} whose signature is
// an HMAC under the user's record key (internal/userstate), which lives
// outside every project. The signed bytes bind the run id (the directory
// name) and, for a pending apply, the project root, so a genuine record
// copied to another run or project does not verify either. A record that
// does not verify is reported as "unverified record, ignored" and never
// acted on.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Purposes of the record signatures (a signature for one never verifies
// another).
const (
	purposeMeta    = "sentinel run meta v1"
	purposePending = "sentinel pending apply v1"
)

// ErrUnverified is a run record Sentinel cannot prove it wrote.
var ErrUnverified = errors.New("unverified record, ignored (Sentinel did not write it, or it was changed since)")

type envelope struct {
	Record json.RawMessage `json:"record"`
	Sig    string          `json:"sig"`
}

func bindRecord(raw []byte, bind ...string) []byte {
	var b []byte
	for _, s := range bind {
		b = append(append(b, s...), 0)
	}
	return append(b, raw...)
}

// writeSigned replaces dir/name with v, signed for purpose and bound to bind.
func writeSigned(dir, name, purpose string, v any, bind ...string) error {
	raw, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return err
	}
	sig, err := userstate.Sign(purpose, bindRecord(raw, bind...))
	if err != nil {
		return fmt.Errorf("sign %s: %w", name, err)
	}
	b, err := json.MarshalIndent(envelope{Record: raw, Sig: sig}, "", "  ")
	if err != nil {
		return err
	}
	return writeFileIn(dir, name, append(b, '\n'), 0o600)
}

// readSigned reads dir/name into v when its signature verifies; otherwise
// the error wraps ErrUnverified (or is the read error, e.g. not found).
func readSigned(dir, name, purpose string, v any, bind ...string) error {
	b, err := readFileIn(dir, name)
	if err != nil {
		return err
	}
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil || len(env.Record) == 0 {
		return fmt.Errorf("%s: %w", name, ErrUnverified)
	}
	if !userstate.Verify(purpose, bindRecord(env.Record, bind...), env.Sig) {
		return fmt.Errorf("%s: %w", name, ErrUnverified)
	}
	if err := json.Unmarshal(env.Record, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Unverified is an entry under .sentinel/runs that Sentinel ignored.
type Unverified struct {
	Name   string // the directory name as found (may be anything)
	Reason string
}

// String is the one line reported for it; the name is quoted when it is not
// a run id, so a planted name cannot carry terminal control codes.
func (u Unverified) String() string {
	name := u.Name
	if !ValidRunID(name) {
		name = strconv.Quote(name)
	}
	return fmt.Sprintf("run %s: unverified record, ignored (%s)", name, u.Reason)
}

// ScanRuns reads every run record of the project: those Sentinel can prove
// it wrote, newest first, and the entries it ignored and why. A run
// directory with no meta.json yet (a run being created) is neither.
//
// A run whose record says running but whose process is gone is shown as
// interrupted (markGone).
func ScanRuns(p *Project) ([]*Meta, []Unverified, error) {
	return scanRuns(p, true)
}

// scanRuns is ScanRuns; gone false leaves each record as it was written
// (SweepStale acts on what the record says).
func scanRuns(p *Project, gone bool) ([]*Meta, []Unverified, error) {
	if err := p.stateDirs("runs"); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	entries, err := os.ReadDir(p.RunsDir())
	if err != nil {
		return nil, nil, err
	}
	var out []*Meta
	var bad []Unverified
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() {
			continue // not a run directory
		}
		if !ValidRunID(name) {
			bad = append(bad, Unverified{name, "not a run id"})
			continue
		}
		if e.Type()&os.ModeSymlink != 0 || !e.IsDir() {
			bad = append(bad, Unverified{name, "the run directory is a symlink"})
			continue
		}
		m, err := ReadMeta(p, name)
		if errors.Is(err, os.ErrNotExist) {
			if _, perr := os.Lstat(pendingPath(p.RunDir(name))); perr == nil {
				bad = append(bad, Unverified{name, "a pending apply without a run record"})
			}
			continue
		}
		if err != nil {
			bad = append(bad, Unverified{name, "meta.json is not signed by Sentinel"})
			continue
		}
		if _, perr := os.Lstat(pendingPath(p.RunDir(name))); perr == nil {
			if _, err := readPending(p, name); err != nil {
				bad = append(bad, Unverified{name, "apply.pending.json is not signed by Sentinel"})
			}
		}
		if gone {
			markGone(p.RunDir(name), m)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, bad, nil
}

// markGone shows a run whose record says running but whose process is gone
// as interrupted, with the time of its last event as its end, even when
// its record could not be rewritten (SweepStale on a full disk): the
// process is checked, not only the record. A live run holds its lock for
// its whole life, and the kernel releases it when the process dies, however
// it dies; a lock that can be taken is a process that is gone.
func markGone(dir string, m *Meta) {
	if m.Status != StatusRunning {
		return
	}
	l, err := lockRun(dir)
	if err != nil {
		return // held: its process is alive (or another sentinel is settling it)
	}
	l.release()
	m.Status = StatusInterrupted
	if m.Error == "" {
		m.Error = "the sentinel process ended without finishing the run (killed or crashed)"
	}
	if m.Ended.IsZero() {
		m.Ended = deadEnd(dir, m)
	}
}
