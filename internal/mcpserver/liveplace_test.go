//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/placelock"
)

// While an in-place run works on a place under an rw path, a call that
// can write there (a file tool naming a path in it, any command) is
// refused naming the run; a read there and a write beside it go on; once
// the run has ended, the write there is made.
func TestAWriteInALiveInPlaceRunsPlaceIsRefused(t *testing.T) {
	f := newFixture(t)
	place := filepath.Join(f.rw, "proj")
	write(t, filepath.Join(place, "main.go"), "package main\n")
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	run := "20261207-090000-abcdef"
	l, err := placelock.Acquire(place, placelock.Holder{Run: run, Kind: placelock.KindExec, Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(place, "new.txt")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit", map[string]any{"path": target, "content": "x\n"}},
		{"delete", map[string]any{"path": filepath.Join(place, "main.go")}},
		{"move", map[string]any{"from": filepath.Join(place, "main.go"), "to": filepath.Join(f.rw, "stolen.go")}},
		{"exec", map[string]any{"command": "true"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, "[place-busy]") || !strings.Contains(text, run) {
			t.Errorf("%s in a live run's place: (error=%v) %s", c.tool, isErr, text)
		}
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the refused edit made its file")
	}
	if _, err := os.Stat(filepath.Join(place, "main.go")); err != nil {
		t.Fatalf("the refused delete or move acted: %v", err)
	}
	mustAllow(t, cs, "read", map[string]any{"path": filepath.Join(place, "main.go")})
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, "notes.txt"), "content": "beside the place\n"})
	l.Release()
	mustAllow(t, cs, "edit", map[string]any{"path": target, "content": "x\n"})
}
