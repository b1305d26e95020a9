//go:build unix

package mcpserver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer the server's handlers may write from
// their goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogLevel(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for level, want := range map[string]struct{ allow, args, deny bool }{
		"debug": {true, true, true},
		"info":  {true, false, true},
		"warn":  {false, false, true},
		"error": {false, false, false},
	} {
		t.Run(level, func(t *testing.T) {
			var out lockedBuffer
			cs, _ := stdioSession(t, mustConfig(t, f.config("[log]\nlevel = \""+strings.ToUpper(level)+"\"\n")), Options{Log: &out})
			mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/notes.txt"})
			mustRefuse(t, cs, "read", map[string]any{"path": f.secret}, ClassPathNotAllowed)
			got := out.String()
			if has := strings.Contains(got, "tool=read decision=allow"); has != want.allow {
				t.Errorf("allowed call logged=%v, want %v:\n%s", has, want.allow, got)
			}
			if has := strings.Contains(got, "notes.txt"); has != want.args {
				t.Errorf("arguments logged=%v, want %v:\n%s", has, want.args, got)
			}
			if has := strings.Contains(got, "level=WARN msg=call tool=read decision=deny"); has != want.deny {
				t.Errorf("refusal logged=%v, want %v:\n%s", has, want.deny, got)
			}
		})
	}
}

// Without a [log] table nothing is logged.
func TestLogOffByDefault(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var out lockedBuffer
	cs, _ := stdioSession(t, mustConfig(t, f.config("")), Options{Log: &out})
	mustRefuse(t, cs, "read", map[string]any{"path": f.secret}, ClassPathNotAllowed)
	if out.String() != "" {
		t.Fatalf("logged without [log]: %s", out.String())
	}
}

func TestLogConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	logFile := filepath.Join(t.TempDir(), "mcp.log")
	c := mustConfig(t, f.config("[log]\nlevel = \"info\"\nfile = \""+logFile+"\"\n"))
	cs, srv := stdioSession(t, c, Options{})
	mustAllow(t, cs, "list", map[string]any{"path": f.rw})
	cs.Close()
	if b, _ := os.ReadFile(logFile); !strings.Contains(string(b), "tool=list decision=allow") {
		t.Fatalf("[log] file: %q", b)
	}
	_ = srv
	for extra, want := range map[string]string{
		"[log]\nlevel = \"loud\"\n":                   `mcp.toml:11: [log] level "loud": use debug, info, warn or error`,
		"[log]\nfile = \"rel.log\"\n":                 "absolute path",
		"[log]\nfile = \"" + f.rw + "/mcp.log\"\n":    "lies under a configured path",
		"[log]\nlevel = \"info\"\ncolour = \"red\"\n": `unknown key "log.colour"`,
	} {
		p := filepath.Join(t.TempDir(), "mcp.toml")
		write(t, p, f.config("")+extra)
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", extra, err, want)
		}
	}
}
