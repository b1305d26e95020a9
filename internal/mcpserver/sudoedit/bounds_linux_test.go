package sudoedit

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Deeply nested content never reaches the validators: a TOML inline-table
// bomb (memory quadratic in depth) and a shell $( bomb (a fatal stack
// overflow in the parser) are refused before Check runs, as root.
func TestHelperRefusesDeepNestingBeforeValidating(t *testing.T) {
	e := newHelperEnv(t)
	var checked atomic.Int32
	e.check = func(string, []byte) error { checked.Add(1); return nil }
	toml := filepath.Join(e.etc, "app.toml")
	sh := filepath.Join(e.etc, "app.sh")
	writeRoot(t, toml, "a = 1\n", 0o644)
	sh2 := filepath.Join(e.etc, "app.bash")
	writeRoot(t, sh, "echo hi\n", 0o644)
	writeRoot(t, sh2, "echo hi\n", 0o644)
	e.serve(t, toml, sh, sh2)
	for p, body := range map[string]string{
		toml: "a = " + strings.Repeat("{b=", 4000),
		sh:   strings.Repeat("$(", 100000),
		sh2:  strings.Repeat("if a;then ", 10000),
	} {
		if _, errText := e.as(t, Request{Op: "write", Path: p, Content: []byte(body)}); !strings.Contains(errText, "nests") {
			t.Errorf("%s: want a refusal naming the nesting, got %q", p, errText)
		}
	}
	if n := checked.Load(); n != 0 {
		t.Fatalf("the validator ran %d times on a nesting bomb", n)
	}
	// Ordinary nesting is validated and written.
	if _, errText := e.as(t, Request{Op: "write", Path: toml, Content: []byte("a = {b = {c = [1, [2]]}}\n")}); errText != "" || checked.Load() != 1 {
		t.Fatalf("ordinary TOML: %q (validator ran %d times)", errText, checked.Load())
	}
	// Many keywords that do not nest, and in comments, pass.
	script := strings.Repeat("if a; then b; fi\n# wait for it, if ever, for a while\n", 1000)
	if _, errText := e.as(t, Request{Op: "write", Path: sh2, Content: []byte(script)}); errText != "" || checked.Load() != 2 {
		t.Fatalf("an ordinary script: %q (validator ran %d times)", errText, checked.Load())
	}
}

// Every request from the service user is on record before it is acted
// on, a malformed one too; an audit that cannot be written stops edits.
func TestHelperAuditsFirstAndFailsClosed(t *testing.T) {
	e := newHelperEnv(t)
	listed := filepath.Join(e.etc, "app.json")
	writeRoot(t, listed, `{"a": 1}`, 0o644)
	srv := e.serve(t, listed)

	t.Setenv("SUDOEDIT_TEST_RAW", "1")
	_, errText := e.send(t, []byte(`{"op":"write","path":"`+listed+`","content":"!!"}`))
	t.Setenv("SUDOEDIT_TEST_RAW", "")
	if !strings.Contains(errText, "one JSON object") {
		t.Fatalf("a malformed request: %q", errText)
	}
	audit, _ := os.ReadFile(e.audit)
	if !strings.Contains(string(audit), "one JSON object") {
		t.Fatalf("the malformed request is not in the audit:\n%s", audit)
	}

	if _, errText := e.as(t, Request{Op: "write", Path: listed, Content: []byte(`{"a": 2}`)}); errText != "" {
		t.Fatalf("a write: %q", errText)
	}
	audit, _ = os.ReadFile(e.audit)
	lines := strings.Split(strings.TrimSpace(string(audit)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"result":"received"`) || !strings.Contains(lines[2], `"result":"done"`) {
		t.Fatalf("want received then done:\n%s", audit)
	}

	srv.audit.Close() // the audit can no longer be written
	if _, errText := e.as(t, Request{Op: "write", Path: listed, Content: []byte(`{"a": 3}`)}); !strings.Contains(errText, "audit") {
		t.Fatalf("a write with no audit: %q", errText)
	}
	if b, _ := os.ReadFile(listed); string(b) != `{"a": 2}` {
		t.Fatalf("written with no audit: %q", b)
	}
}

// A listed setuid file is never replaced: its replacement would keep the
// bit and run the service user's program as root.
func TestHelperRefusesSetuidFiles(t *testing.T) {
	e := newHelperEnv(t)
	tool := filepath.Join(e.etc, "tool")
	writeRoot(t, tool, "#!/bin/sh\n", 0o755)
	os.Chmod(tool, os.ModeSetuid|0o755)
	e.serve(t, tool)
	if _, errText := e.as(t, Request{Op: "write", Path: tool, Content: []byte("pwned")}); !strings.Contains(errText, "setuid") {
		t.Fatalf("a write of a setuid file: %q", errText)
	}
	if b, _ := os.ReadFile(tool); string(b) != "#!/bin/sh\n" {
		t.Fatalf("the setuid file holds %q", b)
	}
}

// Backups are bounded: the newest keepBackups of a file are kept, and none
// is written (nor the file) when its file system is nearly full.
func TestHelperBoundsBackups(t *testing.T) {
	e := newHelperEnv(t)
	listed := filepath.Join(e.etc, "app.json")
	writeRoot(t, listed, `{"a": 0}`, 0o644)
	srv := e.serve(t, listed)
	for i := 1; i <= keepBackups+3; i++ {
		if _, errText := e.as(t, Request{Op: "write", Path: listed, Content: []byte(fmt.Sprintf(`{"a": %d}`, i))}); errText != "" {
			t.Fatalf("write %d: %s", i, errText)
		}
	}
	ents, _ := os.ReadDir(e.backups)
	if len(ents) != keepBackups {
		t.Fatalf("%d backups kept, want %d", len(ents), keepBackups)
	}
	newest, _ := os.ReadFile(filepath.Join(e.backups, ents[len(ents)-1].Name()))
	if string(newest) != fmt.Sprintf(`{"a": %d}`, keepBackups+2) {
		t.Fatalf("the newest backup holds %q", newest)
	}
	srv.mu.Lock()
	srv.minFree = 1 << 62 // more than any disk
	srv.mu.Unlock()
	if _, errText := e.as(t, Request{Op: "write", Path: listed, Content: []byte(`{"full": 1}`)}); !strings.Contains(errText, "free") {
		t.Fatalf("a write with no room for its backup: %q", errText)
	}
	if b, _ := os.ReadFile(listed); strings.Contains(string(b), "full") {
		t.Fatal("written with no room for its backup")
	}
}

// A request is read only up to the frame its max_bytes needs, and only
// maxConns connections are read at once.
func TestHelperBoundsConnections(t *testing.T) {
	e := newHelperEnv(t)
	listed := filepath.Join(e.etc, "app.json")
	writeRoot(t, listed, `{"a": 1}`, 0o644)
	e.extra = "max_bytes = 1024\n"
	e.serve(t, listed)
	big := `{"a": "` + strings.Repeat("x", 16<<10) + `"}`
	if _, errText := e.as(t, Request{Op: "write", Path: listed, Content: []byte(big)}); !strings.Contains(errText, "one JSON object") {
		t.Fatalf("a request over its frame was read whole: %q", errText)
	}

	var idle []net.Conn
	for range maxConns {
		c, err := net.Dial("unix", e.sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		Client{Socket: e.sock, Timeout: time.Minute}.Do(context.Background(), Request{Op: "read", Path: listed})
	}()
	select {
	case <-answered:
		t.Fatalf("a request was answered while %d connections were open", maxConns)
	case <-time.After(2 * time.Second): // a chance for a missing limit to show
	}
	idle[0].Close()
	select {
	case <-answered:
	case <-time.After(60 * time.Second): // a hang bound
		t.Fatal("a request waits with a slot free")
	}
}

// A listed file in a directory the service user can write is refused when
// the config is loaded and when it is asked for.
func TestHelperRefusesFilesInDirsOthersWrite(t *testing.T) {
	e := newHelperEnv(t)
	theirs := filepath.Join(e.base, "theirs")
	os.Mkdir(theirs, 0o755)
	os.Chown(theirs, e.uid, e.gid)
	cfgFile := filepath.Join(e.base, "cfg", "mcp-sudo.toml")
	os.WriteFile(cfgFile, []byte(fmt.Sprintf("user = \"sentinel-ci\"\nfiles = [%q]\n", filepath.Join(theirs, "app.json"))), 0o644)
	if _, err := LoadConfig(cfgFile); err == nil || !strings.Contains(err.Error(), "must be root's") {
		t.Fatalf("a listed file in the service user's dir: %v", err)
	}

	listed := filepath.Join(e.etc, "app.json")
	writeRoot(t, listed, `{"a": 1}`, 0o644)
	e.serve(t, listed)
	os.Chmod(e.etc, 0o777) // opened to everyone after the load
	if _, errText := e.as(t, Request{Op: "write", Path: listed, Content: []byte(`{"a": 2}`)}); !strings.Contains(errText, "writable by group or others") {
		t.Fatalf("a write in a world-writable dir: %q", errText)
	}
	if b, _ := os.ReadFile(listed); string(b) != `{"a": 1}` {
		t.Fatalf("written in a world-writable dir: %q", b)
	}
}
