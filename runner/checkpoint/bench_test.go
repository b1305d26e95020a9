//go:build unix

package checkpoint

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// benchPlace is a tree of 3000 files of 1–8 KiB in 100 directories.
func benchPlace(b *testing.B) string {
	root := b.TempDir()
	for i := 0; i < 3000; i++ {
		write(b, root, fmt.Sprintf("d%02d/sub/f%04d.txt", i%100, i), strings.Repeat("x", 1024*(1+i%8)), 0o644)
	}
	return root
}

// BenchmarkTakeFirst is the first checkpoint of a place: every file read
// and stored.
func BenchmarkTakeFirst(b *testing.B) {
	root := benchPlace(b)
	for b.Loop() {
		s := newStore(b, root)
		take(b, s, root, Options{})
	}
}

// BenchmarkTakeAgain is a checkpoint of an unchanged place after an
// earlier one: stamps compared, nothing read.
func BenchmarkTakeAgain(b *testing.B) {
	root := benchPlace(b)
	s := newStore(b, root)
	prev := take(b, s, root, Options{})
	prev.Started = time.Now().Add(time.Hour)
	for b.Loop() {
		take(b, s, root, Options{Prev: prev})
	}
}

// BenchmarkStamp is a stamp of the place (sentinel mcp's per-call window
// when its points are off): one walk, each file's attributes listed.
func BenchmarkStamp(b *testing.B) {
	root := benchPlace(b)
	for b.Loop() {
		if _, err := Stamp(root, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
