package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 31: no other user may reach a server. A token written in an
// mcp.toml that other users may read (a 0644 file, as an editor makes it)
// let an unprivileged user read it and call root's `sentinel mcp --http`;
// CheckTokenFile (sentinel mcp --http asks it first) refuses it, naming
// the fix. A 0600 file serves.
func TestCheckTokenFileRefusesAFileOthersMayRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "mcp.toml")
	src := "token = \"0123456789abcdef0123456789abcdef\"\n[[paths]]\npath = \"" + dir + "\"\naccess = \"r\"\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.CheckTokenFile(); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a token in a 0644 config was served (err %v)", err)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cfg.CheckTokenFile(); err != nil {
		t.Fatalf("a 0600 config's token was refused: %v", err)
	}
}
