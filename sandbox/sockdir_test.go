package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A TMPDIR deep enough that a socket under it could not be listened on
// (sun_path is 108 bytes) still gives a sandbox with its proxy, whose
// socket's own directory is gone after Close.
func TestADeepTempDirStillGivesTheProxy(t *testing.T) {
	if _, err := os.Stat("/tmp"); err != nil {
		t.Skip("no /tmp")
	}
	deep := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", deep)
	s, err := Prepare(Profile{Workspace: t.TempDir(), Net: NetProxy}, Options{Mode: ModeNS, Helper: helperBin})
	if err != nil {
		t.Fatalf("a sandbox under a deep TMPDIR: %v", err)
	}
	if len(s.sock) >= maxSocketPath {
		t.Fatalf("the proxy listens at a %d-byte path: %s", len(s.sock), s.sock)
	}
	cmd, err := s.Command(context.Background(), "", "true")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("a command in the sandbox: %v: %s", err, out)
	}
	dir := filepath.Dir(s.sock)
	s.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the proxy's directory %s is left after Close: %v", dir, err)
	}
}
