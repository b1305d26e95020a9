package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
)

// SeekAfter is the byte offset in the journal file at path just past the
// line whose event has seq: where a reader resumes after that event without
// reading what came before. Lines are in seq order, so it is found by
// bisection, reading a few lines at each step. ok is false when no line has
// exactly that seq (a torn or rewritten file): the caller reads from the
// start instead.
func SeekAfter(path string, seq int64) (off int64, ok bool, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0) // never read through a planted link
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	// lo is a line start whose seq is at most seq (or the file's start);
	// hi a position at or past the line holding seq, when there is one.
	lo, hi := int64(0), st.Size()
	for hi-lo > 64<<10 {
		mid := lo + (hi-lo)/2
		start, s, found, err := lineAt(f, mid)
		if err != nil {
			return 0, false, err
		}
		if !found || s > seq {
			hi = mid
			continue
		}
		lo = start
	}
	// the rest, line by line
	br := bufio.NewReaderSize(io.NewSectionReader(f, lo, st.Size()-lo), 64<<10)
	pos := lo
	for {
		b, err := br.ReadBytes('\n')
		if err != nil { // io.EOF: an unterminated tail is not a line yet
			if err == io.EOF {
				err = nil
			}
			return 0, false, err
		}
		pos += int64(len(b))
		s, good := seqOf(b)
		if good && s == seq {
			return pos, true, nil
		}
		if good && s > seq {
			return 0, false, nil
		}
	}
}

// lineAt finds the first complete line starting after byte at (the line
// holding at is skipped): its start and seq; found is false when there is
// no such line or its seq cannot be read.
func lineAt(f *os.File, at int64) (start, seq int64, found bool, err error) {
	br := bufio.NewReaderSize(io.NewSectionReader(f, at, 1<<62), 16<<10)
	skipped, err := br.ReadBytes('\n')
	if err != nil {
		return 0, 0, false, ignoreEOF(err)
	}
	b, err := br.ReadBytes('\n')
	if err != nil {
		return 0, 0, false, ignoreEOF(err)
	}
	s, good := seqOf(b)
	return at + int64(len(skipped)), s, good, nil
}

func ignoreEOF(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// seqOf is the seq of one journal line.
func seqOf(b []byte) (int64, bool) {
	var ev struct {
		Seq *int64 `json:"seq"`
	}
	if json.Unmarshal(bytes.TrimSpace(b), &ev) != nil || ev.Seq == nil {
		return 0, false
	}
	return *ev.Seq, true
}

// ScanFileFrom is ScanFile from byte off, which must start a line (SeekAfter).
func ScanFileFrom(path string, off int64, fn func(Event) error) error {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return err
	}
	return Scan(f, fn)
}
