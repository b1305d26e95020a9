//go:build linux

package mcpserver

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/mcpserver/sudoedit"
)

// TestEditRoutesListedRootFilesThroughTheSudoHelper: a file [sudo] lists is
// edited through the helper (here answering this test's own uid), checked
// on both sides; the helper's list, not the server's, is the gate.
func TestEditRoutesListedRootFilesThroughTheSudoHelper(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	dir := t.TempDir()
	site := filepath.Join(f.outside, "site.json")
	write(t, site, `{"listen": 80}`)
	notHelpers := filepath.Join(f.outside, "also.json")
	write(t, notHelpers, `{"x": 1}`)
	hcfg := &sudoedit.Config{User: "self", UID: os.Getuid(), Files: []string{site}, BackupDir: filepath.Join(dir, "backups"),
		Audit: filepath.Join(dir, "audit.log"), MaxBytes: 1 << 20, File: "/etc/sentinel/mcp-sudo.toml"}
	helper, err := sudoedit.NewServer(hcfg, CheckContent)
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sudo.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); helper.Serve(ln) }()
	t.Cleanup(func() { ln.Close(); <-done })

	cfg := mustConfig(t, f.config("")+"\n[sudo]\nsocket = \""+sock+"\"\nfiles = [\""+site+"\", \""+notHelpers+"\"]\n")
	cs, _ := session(t, cfg, Options{})
	got := mustAllow(t, cs, "edit", map[string]any{"path": site, "content": `{"listen": 443}`})
	if b, _ := os.ReadFile(site); string(b) != `{"listen": 443}` || !strings.Contains(got, "backup of the previous content: "+filepath.Join(dir, "backups")) {
		t.Fatalf("the sudo edit: %q, %s", b, got)
	}
	mustAllow(t, cs, "edit", map[string]any{"path": site, "old_string": "443", "new_string": "8443"})
	if b, _ := os.ReadFile(site); string(b) != `{"listen": 8443}` {
		t.Fatalf("the old_string sudo edit: %q", b)
	}
	mustRefuse(t, cs, "edit", map[string]any{"path": site, "content": `{"listen": `}, ClassValidation)
	mustRefuse(t, cs, "edit", map[string]any{"path": site, "content": `server {}`, "validate": "nginx"}, ClassBadInput)
	mustRefuse(t, cs, "edit", map[string]any{"path": notHelpers, "content": `{"x": 2}`}, ClassPathNotAllowed)
	mustRefuse(t, cs, "edit", map[string]any{"path": f.secret, "content": "pwned"}, ClassPathNotAllowed)
	for p, want := range map[string]string{site: `{"listen": 8443}`, notHelpers: `{"x": 1}`, f.secret: "TOPSECRET\n"} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s holds %q", p, b)
		}
	}
}
