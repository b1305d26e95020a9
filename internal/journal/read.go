package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadFile reads every complete event of a journal file. A final line without
// a newline (a write cut short by a crash) is ignored; a complete line that is
// not valid JSON is an error naming its line number.
//
// It holds the whole journal in memory: a reader of a run whose coder printed
// millions of lines uses ReadFileWhere or ScanFile instead.
func ReadFile(path string) ([]Event, error) {
	return ReadFileWhere(path, nil)
}

// ReadFileWhere is ReadFile keeping only the events keep accepts (nil keeps
// all): what a reader holds is what it keeps, not the journal's size.
func ReadFileWhere(path string, keep func(*Event) bool) ([]Event, error) {
	var evs []Event
	err := ScanFile(path, func(ev Event) error {
		if keep == nil || keep(&ev) {
			evs = append(evs, ev)
		}
		return nil
	})
	return evs, err
}

// ScanFile calls fn with each complete event of the journal file at path,
// in order, holding one at a time; fn's error stops the scan and is
// returned. Torn and corrupt lines are treated as ReadFile treats them.
func ScanFile(path string, fn func(Event) error) error {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0) // never read through a planted link
	if err != nil {
		return err
	}
	defer f.Close()
	return Scan(f, fn)
}

// Read decodes events from r as ReadFile does.
func Read(r io.Reader) ([]Event, error) {
	var evs []Event
	err := Scan(r, func(ev Event) error {
		evs = append(evs, ev)
		return nil
	})
	return evs, err
}

// Scan decodes events from r as ScanFile does.
func Scan(r io.Reader, fn func(Event) error) error {
	br := bufio.NewReaderSize(r, 64*1024)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return nil // an unterminated tail is an interrupted write
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			return fmt.Errorf("journal line %d: %w", n, err)
		}
		if err := fn(ev); err != nil {
			return err
		}
	}
}

// lastSeq is the seq of the last complete line of f, which ends at size
// (0 for an empty file), read back from the end.
func lastSeq(f *os.File, size int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	// Find where the last line starts: after the newline before the one
	// that ends it.
	end := size - 1 // the last line's newline
	start := end
	buf := make([]byte, 64<<10)
	for start > 0 {
		n := min(int64(len(buf)), start)
		if _, err := f.ReadAt(buf[:n], start-n); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			start = start - n + int64(i) + 1
			break
		}
		start -= n
	}
	line := make([]byte, end-start)
	if _, err := f.ReadAt(line, start); err != nil {
		return 0, err
	}
	var ev struct {
		Seq int64 `json:"seq"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &ev) != nil {
		return 0, nil // a corrupt last line: numbering starts again, as a corrupt journal always did
	}
	return ev.Seq, nil
}

var errCancelled = errors.New("journal: subscription cancelled")

// newSectionReader reads f's bytes in [from, to).
func newSectionReader(f *os.File, from, to int64) io.Reader {
	return io.NewSectionReader(f, from, to-from)
}
