package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The real program is found past the shim dir however PATH spells it and
// however often it appears, past another Sentinel shim and a link to one.
func TestRealProgramSkipsShims(t *testing.T) {
	shims := filepath.Join(t.TempDir(), "shims")
	if err := installShims(new(strings.Builder), shims); err != nil {
		t.Fatal(err)
	}
	otherShims := filepath.Join(t.TempDir(), "other")
	if err := installShims(new(strings.Builder), otherShims); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	if err := os.Symlink(filepath.Join(shims, "goose"), filepath.Join(links, "goose")); err != nil {
		t.Fatal(err)
	}
	aliasDir := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(shims, aliasDir); err != nil {
		t.Fatal(err)
	}
	real := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(real, "goose"), "#!/bin/sh\necho real\n")
	if err := os.Chmod(filepath.Join(real, "goose"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", strings.Join([]string{shims, aliasDir, shims + "/.", links, otherShims, real}, ":"))
	got, err := realProgram(shims, "goose")
	if err != nil || got != filepath.Join(real, "goose") {
		t.Fatalf("realProgram = %q, %v; want %s", got, err, filepath.Join(real, "goose"))
	}
	t.Setenv("PATH", strings.Join([]string{shims, links, otherShims}, ":"))
	if got, err := realProgram(shims, "goose"); err == nil {
		t.Fatalf("with only shims on PATH, realProgram found %q", got)
	}
}
