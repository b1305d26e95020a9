package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// The end of a run whose process died is the time of the last event it
// journaled, not the time someone noticed: a sweep that cannot rewrite the
// record (a full disk) still reopens the journal, and each reopen touches
// the file, so neither "now" nor the file's modification time stays put —
// `sentinel runs` showed such a run's duration ticking on every call.

// deadEnd is when the dead run m, whose directory is dir, ended: its last
// complete journal line's time, else (no readable journal) its start.
func deadEnd(dir string, m *Meta) time.Time {
	if t, ok := lastEventTime(filepath.Join(dir, "events.jsonl")); ok && t.After(m.Started) {
		return t.UTC()
	}
	return m.Started
}

// lastEventTime reads the time of the last complete line of the journal at
// path, from its last 64 KiB.
func lastEventTime(path string) (time.Time, bool) {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return time.Time{}, false // never through a link planted where the journal was
	}
	f, err := os.Open(path)
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	size := st.Size()
	n := min(size, 64<<10)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, size-n); err != nil {
		return time.Time{}, false
	}
	end := bytes.LastIndexByte(buf, '\n') // a torn last line is not an event
	if end < 0 {
		return time.Time{}, false
	}
	line := buf[bytes.LastIndexByte(buf[:end], '\n')+1 : end]
	var ev struct {
		Time time.Time `json:"time"`
	}
	if json.Unmarshal(line, &ev) != nil || ev.Time.IsZero() {
		return time.Time{}, false
	}
	return ev.Time, true
}
