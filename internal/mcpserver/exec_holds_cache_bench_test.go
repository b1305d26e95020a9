//go:build unix

package mcpserver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkLookBeforeACommand is the look before each exec command
// (holdsNow) in an rw path holding a repository with an include, five
// nested repositories and 300 directories: every look a full one (before
// the kept answer), then answered from the kept answer (after), in the
// same run; the ratio is reported as full/kept.
//
//	go test -v -run '^$' -bench LookBeforeACommand -benchtime 20x ./internal/mcpserver/
func BenchmarkLookBeforeACommand(b *testing.B) {
	root, out, home := b.TempDir(), b.TempDir(), b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	b.Setenv("GIT_CONFIG_SYSTEM", filepath.Join(out, "system.gitconfig"))
	benchGit(b, "init", "-q", root)
	benchGit(b, "-C", root, "config", "include.path", filepath.Join(out, "team.cfg"))
	for i := range 5 {
		d := filepath.Join(root, "vendor", fmt.Sprint("lib", i))
		benchGit(b, "init", "-q", d)
		benchGit(b, "-C", d, "config", "core.hooksPath", "hooks")
	}
	for i := range 300 {
		if err := os.MkdirAll(filepath.Join(root, "src", fmt.Sprint("p", i/20), fmt.Sprint("d", i)), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	g := &gitGuard{}
	if _, err := g.protect(root); err != nil {
		b.Fatal(err)
	}
	roots := []string{root}
	look := func(b *testing.B) {
		if _, _, _, err := g.holdsNow(context.Background(), roots); err != nil {
			b.Fatal(err)
		}
	}
	var full, kept time.Duration
	b.Run("full", func(b *testing.B) {
		g.looks.off = true
		defer func() { g.looks.off = false }()
		for b.Loop() {
			look(b)
		}
		full = b.Elapsed() / time.Duration(b.N)
	})
	// Wait until the answer is kept: the stamps must be older than lookRacy.
	for end := time.Now().Add(time.Minute); ; {
		look(b)
		n := g.looks.full
		look(b)
		if g.looks.full == n {
			break
		}
		if time.Now().After(end) {
			b.Fatal("the look's answer was never kept")
		}
	}
	b.Run("kept", func(b *testing.B) {
		n := g.looks.full
		for b.Loop() {
			look(b)
		}
		if g.looks.full != n {
			b.Fatalf("%d full looks while nothing changed", g.looks.full-n)
		}
		kept = b.Elapsed() / time.Duration(b.N)
	})
	if kept > 0 {
		b.Logf("full look %v, kept answer %v: %.1fx", full, kept, float64(full)/float64(kept))
	}
}

func benchGit(b *testing.B, args ...string) {
	b.Helper()
	if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
