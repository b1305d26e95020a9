//go:build unix

package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// unshareBenchFiles is how many files the benchmark's rw path holds.
const unshareBenchFiles = 50000

// unshareBenchTree is an rw path of unshareBenchFiles files in 500
// directories (100 per directory, two levels), a few of them hard-linked
// outside it.
func unshareBenchTree(b *testing.B) (root, outside string) {
	b.Helper()
	root, outside = b.TempDir(), b.TempDir()
	for i := range unshareBenchFiles {
		d := filepath.Join(root, fmt.Sprint("p", i/5000), fmt.Sprint("d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(d, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(d, fmt.Sprint("f", i)), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root, outside
}

// BenchmarkHardLinkWalkBeforeACommand is the walk for files hard-linked
// outside the rw paths that runs before each exec command, over an rw path
// of 50,000 files: by filepath.WalkDir and lstat (before), then as
// sharedOutsideRoots does it here (after), in the same run. Besides ns/op
// (wall time, which a loaded machine stretches) it reports the process's
// CPU time per walk (cpu-ns/op).
//
//	go test -run '^$' -bench HardLinkWalkBeforeACommand -benchmem -benchtime 20x ./internal/mcpserver/
func BenchmarkHardLinkWalkBeforeACommand(b *testing.B) {
	root, outside := unshareBenchTree(b)
	for i := range 5 {
		p := filepath.Join(root, "p0", "d0", fmt.Sprint("f", i))
		if err := os.Link(p, filepath.Join(outside, fmt.Sprint("f", i))); err != nil {
			b.Fatal(err)
		}
	}
	roots := []string{root}
	for _, w := range []struct {
		name string
		walk func(roots, skip []string) (map[string][]string, error)
	}{{"walkdir", sharedOutsideRootsWalk}, {"now", sharedOutsideRoots}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime(b)
			for b.Loop() {
				by, err := w.walk(roots, nil)
				if err != nil || len(by[root]) != 5 {
					b.Fatalf("found %v (%v), want the 5 files linked outside", by, err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's user and system CPU time, in ns.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
