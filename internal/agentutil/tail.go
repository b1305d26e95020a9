package agentutil

import (
	"strings"
	"sync"
)

// TailBuffer keeps the last Max bytes written to it (an agent's stderr, for
// error messages). It is safe for concurrent use.
type TailBuffer struct {
	Max int

	mu  sync.Mutex
	buf []byte
}

func (t *TailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.Max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.Max:]...)
	}
	return len(p), nil
}

func (t *TailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// LastLines is the last n lines of s joined on one line with " | ".
func LastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
