package runner

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Limits bound what a run's patch may carry. A change over them is refused
// when the patch is computed — before anything of it is verified, reviewed
// or landed — with an error naming what was too big and the flag that
// raises the limit. Nothing of a refused change reaches the project's
// object store; the workspace is kept for recovery as for any failed run.
type Limits struct {
	// MaxFileBytes bounds the new content of any one changed file.
	MaxFileBytes int64
	// MaxTotalBytes bounds the new content of all changed files together,
	// and the patch text itself.
	MaxTotalBytes int64
}

// The default limits: 10 MB for one file, 50 MB for the whole change.
const (
	DefaultMaxFileBytes  = 10 << 20
	DefaultMaxTotalBytes = 50 << 20
)

// orDefault fills unset limits with the defaults.
func (l Limits) orDefault() Limits {
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	return l
}

// ErrTooBig is wrapped by every refusal for size.
var ErrTooBig = errors.New("the change is too big to land")

func (l Limits) fileTooBig(path string, size int64) error {
	return fmt.Errorf("%w: %s is %s, over the %s limit for one file; nothing of it reached your project and the workspace is kept for recovery (to allow it, run again with --max-file-size %s)",
		ErrTooBig, path, humanBytes(size), humanBytes(l.MaxFileBytes), humanBytes(roundUpMB(size)))
}

// totalTooBig: size is what was counted, or 0 when the patch text ran over
// the limit while being written (its full size is not known then).
func (l Limits) totalTooBig(size int64) error {
	what, raise := fmt.Sprintf("the changed files hold %s", humanBytes(size)), roundUpMB(size)
	if size == 0 {
		what, raise = "the patch is larger than "+humanBytes(l.MaxTotalBytes), 2*l.MaxTotalBytes
	}
	return fmt.Errorf("%w: %s, over the %s limit for the whole change; nothing of it reached your project and the workspace is kept for recovery (to allow it, run again with --max-change-size %s)",
		ErrTooBig, what, humanBytes(l.MaxTotalBytes), humanBytes(raise))
}

func roundUpMB(n int64) int64 { return (n + 1<<20) / (1 << 20) * (1 << 20) }

// humanBytes writes n as a size a person reads, in the unit the flags take.
func humanBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

// ParseSize reads a --max-file-size / --max-change-size value: a number of
// bytes with an optional KB, MB or GB suffix (powers of 1024).
func ParseSize(s string) (int64, error) {
	var n int64
	var unit string
	if _, err := fmt.Sscanf(s, "%d%s", &n, &unit); err != nil {
		if _, err2 := fmt.Sscanf(s, "%d", &n); err2 != nil || fmt.Sprint(n) != s {
			return 0, fmt.Errorf("size %q: want a number of bytes, optionally with KB, MB or GB (e.g. 50MB)", s)
		}
	}
	mult := map[string]int64{"": 1, "B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[strings.ToUpper(unit)]
	if mult == 0 || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, optionally with KB, MB or GB (e.g. 50MB)", s)
	}
	return n * mult, nil
}

// capBuffer collects up to max bytes and then fails the write, which makes
// git stop (its output pipe breaks) instead of Sentinel buffering a huge
// patch.
type capBuffer struct {
	buf  bytes.Buffer
	max  int64
	over bool
}

func (c *capBuffer) Write(p []byte) (int, error) {
	if int64(c.buf.Len())+int64(len(p)) > c.max {
		c.over = true
		return 0, ErrTooBig
	}
	return c.buf.Write(p)
}
