package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/sandbox"
)

// sentinel run --coder codex asks the app-server for its schema inside the
// run's sandbox: codex from PATH never runs on the host, where a marker
// it leaves in /tmp would show (the sandbox's /tmp is its own).
func TestCodexSchemaIsAskedInsideTheSandbox(t *testing.T) {
	t.Parallel()
	bin, err := testbin.Sentinel()
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran-on-host")
	fake := filepath.Join(ws, "codex")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\ntouch '"+marker+"'\necho inside > '"+filepath.Join(ws, "ran-inside")+"'\necho no schema here >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	core := &runCore{ws: &Workspace{Dir: ws}}
	r := &coderStage{runCore: core, guard: &containment{runCore: core}}
	if err := os.MkdirAll(r.guard.agentStateDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	prof := sandbox.DefaultProfile(ws, t.TempDir())
	prof.Writable = append(prof.Writable, r.guard.agentStateDir())
	prof.Net = sandbox.NetNone
	sb, err := sandbox.Prepare(prof, sandbox.Options{Mode: sandbox.ModeAuto, Helper: bin})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	r.guard.sb = sb
	a := codex.New(codex.Options{Binary: fake})
	if err := a.Preflight(); err != nil {
		t.Fatalf("Preflight: %v", err)
	}
	err = r.checkCodexSchema(a)
	if err == nil || !strings.Contains(err.Error(), "in the sandbox") || !strings.Contains(err.Error(), "no schema here") {
		t.Fatalf("checkCodexSchema = %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "ran-inside")); err != nil {
		t.Fatalf("the schema command did not run in the sandbox: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("codex ran on the host")
	}
}
