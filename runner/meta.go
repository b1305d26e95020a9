package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// Status is where a run stands.
type Status string

// Run statuses.
const (
	StatusRunning     Status = "running"
	StatusLanded      Status = "landed"          // finished and landed (or kept, with --apply none)
	StatusFailed      Status = "failed"          // the coder or landing failed; work in recovery
	StatusInterrupted Status = "interrupted"     // stopped or killed; work in recovery
	StatusRejected    Status = "rejected"        // the person rejected the change in review; work in recovery
	StatusPending     Status = "awaiting-review" // nobody could review a working-tree apply; work in recovery
	StatusDone        Status = "done"            // an in-place run (exec) ended well; its changes are in the project already
)

// Meta is a run's summary, kept in runs/<id>/meta.json.
type Meta struct {
	ID         string        `json:"id"`
	Task       string        `json:"task"`
	Coder      string        `json:"coder"`
	Status     Status        `json:"status"`
	Started    time.Time     `json:"started"`
	Ended      time.Time     `json:"ended,omitempty"`
	PID        int           `json:"pid"`
	Sandbox    string        `json:"sandbox"`
	SandboxOff bool          `json:"sandbox_off,omitempty"`
	Apply      ApplyMode     `json:"apply"`
	Base       string        `json:"base"`
	Snapshot   string        `json:"snapshot"`
	ExitCode   *int          `json:"exit_code,omitempty"`
	Landing    *Landing      `json:"landing,omitempty"`
	Recovery   string        `json:"recovery,omitempty"` // where the work was kept
	Error      string        `json:"error,omitempty"`
	Decisions  *Decisions    `json:"decisions,omitempty"`
	Checks     []CheckResult `json:"checks,omitempty"`
	// Planned are the checks the run set out to verify its change with
	// (--verify, config or detected): review re-runs these when the run
	// ended before any of them ran.
	Planned []Check `json:"planned_checks,omitempty"`
	// Workspace is the kind of the run's copy (WorkspaceClone or
	// WorkspaceOverlay): only a clone's recovery copy is a whole tree.
	Workspace string   `json:"workspace,omitempty"`
	Files     []string `json:"files,omitempty"` // what the coder changed
	// PatchSHA256 is the hash of the patch Sentinel computed (patch.diff in
	// the run directory, copied to recovery): review lands only that.
	PatchSHA256 string `json:"patch_sha256,omitempty"`
	// CoderCommitsSHA256 is the hash of the coder's commits the run kept
	// for review (coder_commits_saved.go).
	CoderCommitsSHA256 string `json:"coder_commits_sha256,omitempty"`
	// Stuck: the run failed because its completion gate gave up on the
	// coder (STUCK.md); its state word is "stuck" (State).
	Stuck bool `json:"stuck,omitempty"`
	// Reviewing is set by NoteReviews, never recorded: the run is live
	// and its change waits for the person's review on its screen.
	Reviewing bool `json:"-"`
	// InPlace marks a run of `sentinel exec`: the coder worked in the
	// project itself; there is no patch, recovery or landing.
	InPlace bool `json:"in_place,omitempty"`
}

// Decisions counts a run's approval decisions by who decided.
type Decisions struct {
	Allowed int            `json:"allowed"`
	Denied  int            `json:"denied"`
	By      map[string]int `json:"by"`      // policy, template, person, supervisor, timeout, nobody, error
	ByKind  map[string]int `json:"by_kind"` // shell, write, edit, read, net, mcp, other
}

func metaPath(runDir string) string { return filepath.Join(runDir, "meta.json") }

// writeMeta replaces meta.json atomically, signed (see records.go). runDir
// must be the directory named by m.ID.
func writeMeta(runDir string, m *Meta) error {
	if !ValidRunID(m.ID) || filepath.Base(runDir) != m.ID {
		return fmt.Errorf("internal error: run record %q does not belong in %s", m.ID, runDir)
	}
	return writeSigned(runDir, "meta.json", purposeMeta, m, m.ID)
}

// ReadMeta reads one run's summary: id must be a run id, the run directory
// a real directory, and the record signed by Sentinel for this id (an error
// wrapping ErrUnverified otherwise).
func ReadMeta(p *Project, id string) (*Meta, error) {
	dir, err := p.runDir(id)
	if err != nil {
		return nil, err
	}
	var m Meta
	if err := readSigned(dir, "meta.json", purposeMeta, &m, id); err != nil {
		return nil, err
	}
	if m.ID != id {
		return nil, fmt.Errorf("meta.json: %w", ErrUnverified)
	}
	return &m, nil
}

// ListRuns returns every run of the project that Sentinel can prove it
// recorded, newest first (ScanRuns also says what it ignored).
func ListRuns(p *Project) ([]*Meta, error) {
	out, _, err := ScanRuns(p)
	return out, err
}

// runLock is held for a run's whole life; a run whose lock is free but whose
// status says running was killed.
type runLock struct{ f *os.File }

func lockRun(runDir string) (*runLock, error) {
	f, err := nofollow.OpenFile(filepath.Join(runDir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("run %s is locked by another sentinel: %w", filepath.Base(runDir), err)
	}
	return &runLock{f: f}, nil
}

func (l *runLock) release() {
	if l != nil && l.f != nil {
		_ = filelock.Unlock(l.f)
		l.f.Close()
	}
}
