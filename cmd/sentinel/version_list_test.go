package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// version --check against a file proxy that serves only @v/list (a module
// cache's download dir, GOPROXY=file://$GOMODCACHE/cache/download) names
// the list's highest release, not a pre-release; it failed asking for
// @latest, which such a proxy does not have.
func TestVersionCheckReadsTheProxysList(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "github.com", "sentinelhq", "sentinel", "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(at, "list"), []byte("v0.9.0\nv0.10.1\nv0.11.0-rc.1\nv0.9.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := version
	defer func() { version = old }()
	version = "v0.9.0"
	var b strings.Builder
	getenv := func(k string) string {
		if k == "GOPROXY" {
			return "file://" + dir
		}
		return ""
	}
	if err := checkNewer(context.Background(), &b, getenv); err != nil || !strings.Contains(b.String(), "a newer version is available: v0.10.1 (this is v0.9.0)") {
		t.Fatalf("version --check with a list-only proxy: %q (%v)", b.String(), err)
	}
}
