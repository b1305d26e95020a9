package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"golang.org/x/sys/unix"
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
	Files      []string      `json:"files,omitempty"` // what the coder changed
}

// Decisions counts a run's approval decisions by who decided.
type Decisions struct {
	Allowed int            `json:"allowed"`
	Denied  int            `json:"denied"`
	By      map[string]int `json:"by"`      // policy, template, person, supervisor, timeout, nobody, error
	ByKind  map[string]int `json:"by_kind"` // shell, write, edit, read, net, mcp, other
}

func metaPath(runDir string) string { return filepath.Join(runDir, "meta.json") }

// writeMeta replaces meta.json atomically (temp file + rename).
func writeMeta(runDir string, m *Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmp := metaPath(runDir) + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, metaPath(runDir))
}

// ReadMeta reads one run's summary.
func ReadMeta(runDir string) (*Meta, error) {
	b, err := os.ReadFile(metaPath(runDir))
	if err != nil {
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", metaPath(runDir), err)
	}
	return &m, nil
}

// ListRuns returns every run of the project, newest first.
func ListRuns(p *Project) ([]*Meta, error) {
	entries, err := os.ReadDir(p.RunsDir())
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Meta
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		m, err := ReadMeta(filepath.Join(p.RunsDir(), e.Name()))
		if err != nil {
			continue
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, nil
}

// runLock is held for a run's whole life; a run whose lock is free but whose
// status says running was killed.
type runLock struct{ f *os.File }

func lockRun(runDir string) (*runLock, error) {
	f, err := os.OpenFile(filepath.Join(runDir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("run %s is locked by another sentinel: %w", filepath.Base(runDir), err)
	}
	return &runLock{f: f}, nil
}

func (l *runLock) release() {
	if l != nil && l.f != nil {
		_ = unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
		l.f.Close()
	}
}
