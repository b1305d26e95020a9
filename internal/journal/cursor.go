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

// Cursor reads a journal file's events one at a time, in order, following
// the file as it grows: a view that fell behind reads what it missed back
// from the file instead of holding it in memory.
type Cursor struct {
	f       *os.File
	br      *bufio.Reader
	partial []byte // the start of a line not yet complete in the file
	line    int
}

// OpenCursor opens the journal at path for reading from its first event.
func OpenCursor(path string) (*Cursor, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0) // never read through a planted link
	if err != nil {
		return nil, err
	}
	return &Cursor{f: f, br: bufio.NewReaderSize(f, 64<<10)}, nil
}

// Next returns the next complete event; ok is false at the file's current
// end (a later call may find more).
func (c *Cursor) Next() (ev Event, ok bool, err error) {
	for {
		b, err := c.br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			c.partial = append(c.partial, b...)
			return Event{}, false, nil
		}
		if err != nil {
			return Event{}, false, err
		}
		if len(c.partial) > 0 {
			b = append(c.partial, b...)
			c.partial = nil
		}
		c.line++
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if err := json.Unmarshal(b, &ev); err != nil {
			return Event{}, false, fmt.Errorf("journal line %d: %w", c.line, err)
		}
		return ev, true, nil
	}
}

// Close closes the file.
func (c *Cursor) Close() error { return c.f.Close() }
