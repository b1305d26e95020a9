package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"

	"github.com/sentinelhq/sentinel/internal/runlater"
)

// BenchmarkLaterHoldMade is the look after every exec command on a 50,000
// file tree that the command did not change: "walk" is what it did before
// (runlater.Find over every rw root: a read of every directory and a
// match of every path), "tree" is laterHold.made now (a stat of each
// directory, a read of those that changed, and the environment stamp).
//
//	go test -run '^$' -bench BenchmarkLaterHoldMade -benchtime 20x ./internal/mcpserver/
func BenchmarkLaterHoldMade(b *testing.B) {
	root := b.TempDir()
	for d := range 500 {
		dir := filepath.Join(root, "src", fmt.Sprintf("pkg%03d", d/50), fmt.Sprintf("mod%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.go", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, f := range []string{".envrc", "node_modules/.bin/jest", ".vscode/tasks.json", ".venv/bin/activate"} {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	// A directory changed in the last two seconds is read every time (a
	// coarse clock): a real tree is older than that.
	if !poll.Paced(100*time.Millisecond, time.Minute, func() bool { return !recentlyChanged(root) }) {
		b.Fatal("the tree still looks recently changed after a minute")
	}
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			found, err := runlater.Find(root, nil)
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range found {
				_ = linkState(p)
			}
		}
	})
	b.Run("tree", func(b *testing.B) {
		h, _, err := newLaterHold([]string{root}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if out := h.made(h.envsNow()); len(out) > 0 {
				b.Fatal(out)
			}
		}
	})
}

func recentlyChanged(root string) bool {
	fi, err := os.Stat(filepath.Join(root, "src", "pkg009", "mod499"))
	return err != nil || time.Since(fi.ModTime()) < 3*time.Second
}
