package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// The kinds `sentinel mcp` journals. Stable strings on disk (see package
// journal).
const (
	// KindServe is the server starting (system lane): Serve.
	KindServe journal.Kind = "mcp-serve"
	// KindCall is one tool call and its result (tool lane): Call.
	KindCall journal.Kind = "mcp-call"
	// KindAct is a destructive file operation about to act, or a command
	// (exec, a playbook's, a service action) about to run (tool lane):
	// Act, written before it changes anything; its KindCall line follows
	// with the result. A server killed mid-call leaves this line.
	KindAct journal.Kind = "mcp-act"
)

// Act is the data of an mcp-act event: what a call is about to destroy
// and where it will be kept, or the command it is about to run and where.
type Act struct {
	Tool    string `json:"tool"`
	Path    string `json:"path"`              // what is about to be replaced or removed; a command's directory or unit
	Backup  string `json:"backup,omitempty"`  // where it will be kept ("" for nothing to keep)
	Command string `json:"command,omitempty"` // the command line about to run (exec, playbook, service)
}

// Serve is the data of an mcp-serve event.
type Serve struct {
	Config    string   `json:"config"`
	ExecMode  string   `json:"exec_mode"`
	Transport string   `json:"transport"`
	Paths     []string `json:"paths"`
	// Reload marks a config reloaded while the server ran (reload.go).
	Reload bool `json:"reload,omitempty"`
}

// Call is the data of an mcp-call event. Args is what the client sent: the
// model's word, hostile to every reader; arguments over a KiB are kept as
// ArgsSummary instead (size, sha256, the first KiB).
type Call struct {
	Tool        string          `json:"tool"`
	Args        json.RawMessage `json:"args,omitempty"`
	ArgsSummary *ArgsSummary    `json:"args_summary,omitempty"`
	Decision    string          `json:"decision"` // allow, deny or error
	Class       Class           `json:"class,omitempty"`
	Rule        string          `json:"rule,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	ExitCode    *int            `json:"exit_code,omitempty"`
	Bytes       int             `json:"bytes"`
	DurationMS  int64           `json:"duration_ms"`
	Backup      string          `json:"backup,omitempty"`
	// Point is the checkpoint taken just before the call ('sentinel undo
	// RUN --to POINT' in an rw path puts it back as it was); 0 for none.
	Point int `json:"point,omitempty"`
	// GitSweep is what the git-dir sweep after an exec or playbook
	// command said: what it quarantined, found moved, could not move or
	// could not list.
	GitSweep []string `json:"git_sweep,omitempty"`
}

// Call decisions.
const (
	DecisionAllow = "allow"
	DecisionDeny  = "deny"
	DecisionError = "error"
)

// AsCall decodes an mcp-call event.
func AsCall(ev journal.Event) (Call, bool) { return journal.As[Call](ev, journal.Tool, KindCall) }

// AsAct decodes an mcp-act event.
func AsAct(ev journal.Event) (Act, bool) { return journal.As[Act](ev, journal.Tool, KindAct) }

// AsServe decodes an mcp-serve event.
func AsServe(ev journal.Event) (Serve, bool) {
	return journal.As[Serve](ev, journal.System, KindServe)
}

// audit is the server's journal. One file has one writer at a time: the
// file is locked for the server's life, and a second server given the same
// file refuses to start instead of interleaving sequence numbers.
type audit struct {
	j    *journal.Journal
	lock *os.File
}

// defaultAuditPath is a fresh file per server in the user's state dir.
func defaultAuditPath(run string) (string, error) {
	return userstate.Path(filepath.Join("mcp", run+".jsonl"))
}

func openAudit(path, run string) (*audit, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit journal %s: %w", path, err)
	}
	for _, p := range []string{path, path + ".lock"} {
		if err := ownJournalFile(p); err != nil { // owner_unix.go
			return nil, fmt.Errorf("audit journal %s: %w", path, err)
		}
	}
	lf, err := nofollow.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit journal %s: %w", path, err)
	}
	if err := filelock.TryLock(lf); err != nil {
		lf.Close()
		return nil, fmt.Errorf("audit journal %s is in use by another sentinel mcp: give this server its own audit path (or leave audit out for one per server)", path)
	}
	j, err := journal.Open(path, run)
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("audit journal %s: %w", path, err)
	}
	return &audit{j: j, lock: lf}, nil
}

func (a *audit) call(text string, c Call) error {
	_, err := a.j.Append(journal.Tool, KindCall, text, c)
	return err
}

// aboutToAct journals act before it happens. A line that cannot be
// written refuses the call (fail closed): nothing is destroyed that the
// audit did not hold first.
func (a *audit) aboutToAct(act Act) error {
	text := act.Tool + " about to act on " + act.Path
	if act.Backup != "" {
		text += "; backup: " + act.Backup
	}
	if _, err := a.j.Append(journal.Tool, KindAct, textsafe.Line(text), act); err != nil {
		return fmt.Errorf("the audit journal could not record this %s before it acts (%v), so nothing was changed", act.Tool, err)
	}
	return nil
}

// aboutToRun journals a command before it starts (fail closed, as
// aboutToAct): the call's own line comes only when it ends, so a server
// killed while the command ran (SIGKILL, a crash, the machine going down)
// left nothing in the journal of a command that had already written to
// the person's files or restarted a service (31-ipatk16m).
func (a *audit) aboutToRun(tool, where, line string) error {
	text := textsafe.Line(tool + " about to run in " + where + ": " + argSummary(line))
	if _, err := a.j.Append(journal.Tool, KindAct, text, Act{Tool: tool, Path: where, Command: line}); err != nil {
		return fmt.Errorf("the audit journal could not record this %s before it runs (%v), so nothing ran", tool, err)
	}
	return nil
}

// failed is why the audit journal stopped taking lines (a full disk), or
// nil: from then on the server acts on nothing (handle), since nothing it
// did would be recorded.
func (a *audit) failed() error { return a.j.Err() }

func (a *audit) close() {
	a.j.Close()
	a.lock.Close()
}

func newRunID() string {
	id := fmt.Sprintf("mcp-%s-%d", time.Now().UTC().Format("20060102-150405"), os.Getpid())
	if n := serversMade.Add(1); n > 1 {
		id += fmt.Sprintf("-%d", n)
	}
	return id
}

// serversMade counts the servers this process made: a second one (a
// process serving several, the tests) gets an id, and so a default audit
// file, of its own even within the same second, where it used to find the
// first one's file locked and refuse to start.
var serversMade atomic.Int64
