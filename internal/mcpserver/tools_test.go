//go:build unix

package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestReadListSearchStayInside(t *testing.T) {
	t.Parallel()
	eachLayer(t, testReadListSearchStayInside)
}

func testReadListSearchStayInside(t *testing.T) {
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	os.Symlink(f.outside, filepath.Join(f.rw, "out"))
	os.Symlink(f.secret, filepath.Join(f.ro, "secret-link"))

	if got := mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/notes.txt"}); !strings.Contains(got, "hello world") {
		t.Fatalf("read: %s", got)
	}
	if got := mustAllow(t, cs, "read", map[string]any{"path": f.ro + "/app.log", "offset": 8, "max_bytes": 5}); !strings.HasPrefix(got, "ERROR") || !strings.Contains(got, "offset=13") {
		t.Fatalf("read a page: %s", got)
	}
	for _, p := range []string{f.secret, f.rw + "/../outside/secret.txt", f.rw + "/out/secret.txt", f.ro + "/secret-link", f.rw + "/./../app/../outside/secret.txt"} {
		got := mustRefuse(t, cs, "read", map[string]any{"path": p}, ClassPathNotAllowed)
		if strings.Contains(got, "TOPSECRET") {
			t.Fatal("the secret leaked in a refusal")
		}
	}
	mustRefuse(t, cs, "list", map[string]any{"path": f.rw + "/out"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "search", map[string]any{"path": f.rw + "/out", "pattern": "TOP"}, ClassPathNotAllowed)
	// search under the root does not follow the symlink out of it.
	if got := mustAllow(t, cs, "search", map[string]any{"path": f.rw, "pattern": "TOPSECRET"}); strings.Contains(got, "TOPSECRET") {
		t.Fatalf("search followed a symlink out: %s", got)
	}
	if got := mustAllow(t, cs, "search", map[string]any{"path": f.ro, "pattern": "ERR.R", "regex": true}); !strings.Contains(got, "app.log:2: ERROR disk full") {
		t.Fatalf("search: %s", got)
	}
	if got := mustAllow(t, cs, "list", map[string]any{"path": f.rw}); !strings.Contains(got, "file notes.txt") || !strings.Contains(got, "link out -> "+f.outside) {
		t.Fatalf("list: %s", got)
	}
}

func TestEditBackupValidationAndReadOnly(t *testing.T) {
	t.Parallel()
	eachLayer(t, testEditBackupValidationAndReadOnly)
}

func testEditBackupValidationAndReadOnly(t *testing.T) {
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config("")), Options{})

	mustRefuse(t, cs, "edit", map[string]any{"path": f.ro + "/app.log", "content": "x"}, ClassReadOnlyPath)
	if b, _ := os.ReadFile(f.ro + "/app.log"); string(b) != "boot ok\nERROR disk full\n" {
		t.Fatal("an r path was written")
	}

	got := mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/notes.txt", "old_string": "hello world", "new_string": "hello sentinel"})
	i := strings.Index(got, "backup of the previous content: ")
	if i < 0 {
		t.Fatalf("no backup named: %s", got)
	}
	backup := strings.TrimSpace(got[i+len("backup of the previous content: "):])
	if b, err := os.ReadFile(backup); err != nil || string(b) != "hello world\nsecond line\n" {
		t.Fatalf("backup %s = %q, %v", backup, b, err)
	}
	if b, _ := os.ReadFile(f.rw + "/notes.txt"); string(b) != "hello sentinel\nsecond line\n" {
		t.Fatalf("edit: %q", b)
	}

	// Invalid JSON is refused and the file is unchanged.
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/config.json", "content": `{"a": `}, ClassValidation)
	if b, _ := os.ReadFile(f.rw + "/config.json"); string(b) != `{"a": 1}`+"\n" {
		t.Fatalf("a failed validation changed the file: %q", b)
	}
	for name, body := range map[string]string{"x.yaml": "a: [1", "x.toml": "a = ", "x.go": "package x\nfunc {", "x.sh": "if then fi'"} {
		mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/" + name, "content": body}, ClassValidation)
		if _, err := os.Stat(f.rw + "/" + name); err == nil {
			t.Errorf("%s was created though invalid", name)
		}
	}
	mustAllow(t, cs, "edit", map[string]any{"path": f.rw + "/new.yaml", "content": "a: [1, 2]\n"})
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/notes.txt", "old_string": "nope", "new_string": "x"}, ClassNotFound)
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/../outside/secret.txt", "content": "pwned"}, ClassPathNotAllowed)

	// Editing through a symlink that leads out is refused, and the target is untouched.
	os.Symlink(f.secret, filepath.Join(f.rw, "secret-link"))
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/secret-link", "content": "pwned"}, ClassPathNotAllowed)
	if b, _ := os.ReadFile(f.secret); string(b) != "TOPSECRET\n" {
		t.Fatal("the secret outside was written")
	}

	calls := auditCalls(t, srv)
	var sawBackup bool
	for _, c := range calls {
		if c.Tool == "edit" && c.Backup == backup && c.Decision == DecisionAllow {
			sawBackup = true
		}
	}
	if !sawBackup {
		t.Fatalf("the audit does not name the backup: %+v", calls)
	}
}

func TestWriteOpsRefuseSymlinkEscapes(t *testing.T) {
	t.Parallel()
	eachLayer(t, testWriteOpsRefuseSymlinkEscapes)
}

func testWriteOpsRefuseSymlinkEscapes(t *testing.T) {
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	link := filepath.Join(f.rw, "secret-link")
	os.Symlink(f.secret, link)
	dirLink := filepath.Join(f.rw, "out")
	os.Symlink(f.outside, dirLink)

	mustRefuse(t, cs, "delete", map[string]any{"path": link}, ClassPathNotAllowed)
	mustRefuse(t, cs, "delete", map[string]any{"path": dirLink, "recursive": true}, ClassPathNotAllowed)
	mustRefuse(t, cs, "delete", map[string]any{"path": dirLink + "/secret.txt"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "move", map[string]any{"from": link, "to": f.rw + "/moved"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "move", map[string]any{"from": f.rw + "/notes.txt", "to": dirLink + "/planted"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "copy", map[string]any{"from": link, "to": f.rw + "/copied"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "copy", map[string]any{"from": f.rw + "/notes.txt", "to": dirLink + "/planted"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "chmod", map[string]any{"path": link, "mode": "777"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "chmod", map[string]any{"path": dirLink + "/secret.txt", "mode": "777"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "delete", map[string]any{"path": f.ro + "/app.log"}, ClassReadOnlyPath)
	mustRefuse(t, cs, "copy", map[string]any{"from": f.rw + "/notes.txt", "to": f.ro + "/x"}, ClassReadOnlyPath)
	mustRefuse(t, cs, "delete", map[string]any{"path": f.rw}, ClassPathNotAllowed)
	mustRefuse(t, cs, "chmod", map[string]any{"path": f.rw + "/notes.txt", "mode": "4755"}, ClassBadInput)

	if fi, err := os.Stat(f.secret); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("the secret outside changed: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(f.outside, "planted")); err == nil {
		t.Fatal("a file was planted outside")
	}

	// Inside, they work; deleting a link inside removes the link only.
	inner := filepath.Join(f.rw, "inner-link")
	os.Symlink("notes.txt", inner)
	mustAllow(t, cs, "delete", map[string]any{"path": inner})
	if _, err := os.Stat(f.rw + "/notes.txt"); err != nil {
		t.Fatal("deleting a symlink removed its target")
	}
	mustAllow(t, cs, "copy", map[string]any{"from": f.ro + "/app.log", "to": f.rw + "/app.log"})
	mustAllow(t, cs, "move", map[string]any{"from": f.rw + "/app.log", "to": f.rw + "/old.log"})
	mustAllow(t, cs, "chmod", map[string]any{"path": f.rw + "/old.log", "mode": "600"})
	if fi, _ := os.Stat(f.rw + "/old.log"); fi.Mode().Perm() != 0o600 {
		t.Fatalf("chmod: %v", fi.Mode())
	}
	mustAllow(t, cs, "delete", map[string]any{"path": f.rw + "/old.log"})
}

func TestDisabledOpsAndProgressiveHelp(t *testing.T) {
	t.Parallel()
	eachLayer(t, testDisabledOpsAndProgressiveHelp)
}

func testDisabledOpsAndProgressiveHelp(t *testing.T) {
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config(`disabled_ops = ["delete", "chmod"]
[services.nginx]
actions = ["status"]
[playbooks.health]
kind = "procedure"
description = "check the box"
steps = ["read the log", "look at disk"]
`)), Options{})
	got := mustRefuse(t, cs, "delete", map[string]any{"path": f.rw + "/notes.txt"}, ClassOpDisabled)
	if !strings.Contains(got, "disabled_ops") {
		t.Fatalf("the refusal names no rule: %s", got)
	}
	if _, err := os.Stat(f.rw + "/notes.txt"); err != nil {
		t.Fatal("a disabled delete ran")
	}
	index := mustAllow(t, cs, "help", nil)
	if !strings.Contains(index, "delete (disabled)") || strings.Contains(index, "whole words") || len(index) > 1500 {
		t.Fatalf("the help index is not a small index: %s", index)
	}
	if got := mustAllow(t, cs, "help", map[string]any{"topic": "exec"}); !strings.Contains(got, "whole words") {
		t.Fatalf("help exec: %s", got)
	}
	summary := mustAllow(t, cs, "capabilities", nil)
	if strings.Contains(summary, f.rw) || !strings.Contains(summary, "paths: 1 rw, 1 r") {
		t.Fatalf("the capabilities summary is not a summary: %s", summary)
	}
	if got := mustAllow(t, cs, "capabilities", map[string]any{"path": f.rw + "/notes.txt"}); !strings.Contains(got, "access rw") {
		t.Fatalf("capabilities path: %s", got)
	}
	if got := mustAllow(t, cs, "capabilities", map[string]any{"path": f.secret}); !strings.Contains(got, "not allowed") {
		t.Fatalf("capabilities path outside: %s", got)
	}
	if got := mustAllow(t, cs, "capabilities", map[string]any{"playbook": "health"}); !strings.Contains(got, "look at disk") {
		t.Fatalf("capabilities playbook: %s", got)
	}
	if got := mustAllow(t, cs, "playbook", map[string]any{"name": "health"}); !strings.Contains(got, "2. look at disk") {
		t.Fatalf("procedure: %s", got)
	}
	mustRefuse(t, cs, "service", map[string]any{"unit": "nginx", "action": "restart"}, ClassNotAllowed)
	mustRefuse(t, cs, "service", map[string]any{"unit": "sshd", "action": "status"}, ClassNotFound)
	if n := len(auditCalls(t, srv)); n != 10 {
		t.Fatalf("want one audit line per call (10), got %d", n)
	}
}

// Bad arguments, unknown tools and bad JSON-RPC are protocol errors, and
// the server keeps answering.
func TestProtocolErrorsDoNotCrash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	ctx := context.Background()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil {
		t.Fatal("an unknown tool was not a protocol error")
	}
	for _, args := range []any{map[string]any{"path": 5}, map[string]any{"path": "/x", "bogus": true}, json.RawMessage(`[1]`)} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: args})
		if err == nil && (res == nil || !res.IsError) {
			t.Fatalf("bad arguments %v were accepted", args)
		}
	}
	mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/notes.txt"})
}
