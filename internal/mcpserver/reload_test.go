//go:build unix

package mcpserver

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// syncBuffer is a log both the server and the test touch.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestReloadKeepsSessionsAndAppliesTheNewConfig: a stdio session and an
// HTTP session, both connected before the reload, keep working across it
// and see the new tool list, paths and allowlist on their next call; a
// config that fails to load keeps the one before and says so in one line.
func TestReloadKeepsSessionsAndAppliesTheNewConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	file := filepath.Join(t.TempDir(), "mcp.toml")
	write(t, file, f.config(`disabled_ops = ["chmod"]`))
	cfg, err := LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	cs, srv := stdioSession(t, cfg, Options{Warn: log})
	const token = "0123456789abcdef0123456789abcdef"
	hs := httptest.NewServer(srv.Handler(token))
	t.Cleanup(hs.Close)
	tr := &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	hc, err := mcp.NewClient(&mcp.Implementation{Name: "http"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hc.Close() })
	sessions := map[string]*mcp.ClientSession{"stdio": cs, "http": hc}
	target := filepath.Join(f.rw, "notes.txt")

	// Before: chmod is off, the outside dir is not a path, echo is allowed
	// (not run here: a sandbox start is slow on a loaded machine; after the
	// reload a session still on this config would run it, not refuse it).
	for name, s := range sessions {
		if txt := mustRefuse(t, s, "chmod", map[string]any{"path": target, "mode": "600"}, ClassOpDisabled); !strings.Contains(txt, "disabled") {
			t.Fatalf("%s: chmod before the reload: %s", name, txt)
		}
		mustRefuse(t, s, "read", map[string]any{"path": f.secret}, ClassPathNotAllowed)
	}

	// The new config: chmod on, the outside dir readable, echo no longer
	// allowed.
	write(t, file, strings.Replace(f.config(""), `"echo", `, "", 1)+"\n[[paths]]\npath = \""+f.outside+"\"\naccess = \"r\"\n")
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	for name, s := range sessions {
		mustAllow(t, s, "chmod", map[string]any{"path": target, "mode": "600"})
		if txt := mustAllow(t, s, "read", map[string]any{"path": f.secret}); !strings.Contains(txt, "TOPSECRET") {
			t.Fatalf("%s: read of a path the reload added: %s", name, txt)
		}
		mustRefuse(t, s, "exec", map[string]any{"command": "echo after"}, ClassNotAllowed)
	}

	// A config that does not load: the reload says why in one line, and
	// the config before it stays.
	write(t, file, "exec_mode = \"sometimes\"\n"+f.config(""))
	if err := srv.Reload(); err == nil || !strings.Contains(err.Error(), "exec_mode") {
		t.Fatalf("a bad config reloaded: %v", err)
	}
	var failed []string
	for _, l := range strings.Split(log.String(), "\n") {
		if strings.Contains(l, "config reload failed") {
			failed = append(failed, l)
		}
	}
	if len(failed) != 1 || !strings.Contains(failed[0], "previous config") || !strings.Contains(failed[0], "exec_mode") {
		t.Fatalf("the failed reload's log lines: %q", failed)
	}
	for name, s := range sessions {
		if txt := mustAllow(t, s, "read", map[string]any{"path": f.secret}); !strings.Contains(txt, "TOPSECRET") {
			t.Fatalf("%s: after a failed reload the config before it is gone: %s", name, txt)
		}
		mustRefuse(t, s, "exec", map[string]any{"command": "echo after"}, ClassNotAllowed)
	}

	// The journal says which config each part of the session ran under.
	reloads := 0
	evs, err := journal.ReadFile(srv.AuditPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if sv, ok := AsServe(ev); ok && sv.Reload {
			reloads++
		}
	}
	if reloads != 1 {
		t.Fatalf("the audit records %d reloads, want 1", reloads)
	}
}

// TestWatchConfigReloadsOnChangeAndOnSIGHUP: the file changing reloads it,
// and so does SIGHUP.
func TestWatchConfigReloadsOnChangeAndOnSIGHUP(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	file := filepath.Join(t.TempDir(), "mcp.toml")
	write(t, file, f.config(`disabled_ops = ["chmod"]`))
	cfg, err := LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	cs, srv := session(t, cfg, Options{Warn: &syncBuffer{}})
	reloaded := make(chan error, 8)
	srv.gens.reloaded = func(err error) { reloaded <- err }
	target := filepath.Join(f.rw, "notes.txt")
	// Changed before the watch starts: only SIGHUP reloads it.
	write(t, file, f.config(""))
	hup := make(chan os.Signal, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.WatchConfig(ctx, hup) }()
	t.Cleanup(func() { cancel(); <-done })
	hup <- syscall.SIGHUP
	select {
	case err := <-reloaded:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // a hang bound
		t.Fatal("SIGHUP: no reload")
	}
	mustAllow(t, cs, "chmod", map[string]any{"path": target, "mode": "600"})

	// The file changing reloads it (written until the watch, which may
	// have started after the first write, has seen it).
	deadline := time.Now().Add(60 * time.Second) // a hang bound
	for {
		if time.Now().After(deadline) {
			t.Fatal("the changed config file was not reloaded")
		}
		write(t, file, f.config(`disabled_ops = ["chmod"]`))
		select {
		case err := <-reloaded:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(2 * time.Second): // a retry, not an assertion
		}
		if txt, isErr := call(t, cs, "chmod", map[string]any{"path": target, "mode": "644"}); isErr && strings.Contains(txt, "disabled") {
			return
		}
	}
}
