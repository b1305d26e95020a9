package runner

import (
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// KindVerifyProgress is a check still running: CheckProgress, journalled
// every progressEvery so a long wait shows a sign of life. It is on the
// system lane, which the supervisor's history leaves out (the line is the
// check's words, and a long check would crowd out what matters).
const KindVerifyProgress journal.Kind = "verify-progress"

// KindAwaitModel says the run now waits for a model's answer (supervisor
// lane for the completion review, adversary lane for the adversarial
// tester); the next event on that lane ends the wait.
const KindAwaitModel journal.Kind = "await-model"

// progressEvery is how often a running check reports its progress.
const progressEvery = time.Second

// CheckProgress is how long a check has run and the last line it printed
// (the check runs the coder's code: views pass it through textsafe).
type CheckProgress struct {
	Command   string `json:"command"`
	ElapsedMS int64  `json:"elapsed_ms"`
	LastLine  string `json:"last_line"`
}

// Elapsed is how long the check has run.
func (p CheckProgress) Elapsed() time.Duration { return time.Duration(p.ElapsedMS) * time.Millisecond }

// AsCheckProgress decodes a KindVerifyProgress event.
func AsCheckProgress(ev journal.Event) (CheckProgress, bool) {
	var p CheckProgress
	if !ev.Is(journal.System, KindVerifyProgress) || json.Unmarshal(ev.Data, &p) != nil {
		return p, false
	}
	return p, true
}

// AsCheckResult decodes a KindVerify event: one check's result with the
// tail of its output.
func AsCheckResult(ev journal.Event) (CheckResult, bool) {
	var c CheckResult
	if !ev.Is(journal.Tool, KindVerify) || json.Unmarshal(ev.Data, &c) != nil {
		return c, false
	}
	return c, true
}

// maxProgressLine bounds the last line a progress event carries.
const maxProgressLine = 200

// lastLine passes writes on to w and keeps the last non-empty line, the
// unfinished one included (a progress bar never ends its line).
type lastLine struct {
	w    io.Writer
	mu   sync.Mutex
	cur  strings.Builder // since the last newline
	last string          // the last complete non-empty line
}

func (l *lastLine) Write(p []byte) (int, error) {
	l.mu.Lock()
	for _, b := range p {
		switch b {
		case '\n', '\r':
			if s := strings.TrimSpace(l.cur.String()); s != "" {
				l.last = s
			}
			l.cur.Reset()
		default:
			if l.cur.Len() < 4*maxProgressLine {
				l.cur.WriteByte(b)
			}
		}
	}
	l.mu.Unlock()
	return l.w.Write(p)
}

// Line is the last line printed so far, cut to maxProgressLine bytes.
func (l *lastLine) Line() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := strings.TrimSpace(l.cur.String())
	if s == "" {
		s = l.last
	}
	if len(s) > maxProgressLine {
		s = strings.ToValidUTF8(s[:maxProgressLine], "") + "…"
	}
	return s
}

// reportProgress emits a KindVerifyProgress event for cmd at each tick
// until done is closed.
func reportProgress(tick <-chan time.Time, done <-chan struct{}, start time.Time, cmd string, out *lastLine,
	emit func(lane journal.Lane, kind journal.Kind, text string, data any)) {
	for {
		select {
		case <-done:
			return
		case now := <-tick:
			p := CheckProgress{Command: cmd, ElapsedMS: now.Sub(start).Milliseconds(), LastLine: out.Line()}
			emit(journal.System, KindVerifyProgress, ProgressText(p), p)
		}
	}
}

// ProgressText is the one line a view shows for p: "still running (20s):
// <last line>".
func ProgressText(p CheckProgress) string {
	s := "still running (" + p.Elapsed().Round(time.Second).String() + "): "
	if p.LastLine == "" {
		return s + "no output yet from " + p.Command
	}
	return s + p.LastLine
}
