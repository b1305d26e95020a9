package sandbox

import (
	"os"
	"testing"
)

// The work `sentinel sandbox run` does before it starts anything, per
// command: go test -run '^$' -bench 'DefaultProfile|PlanMounts' ./sandbox
func BenchmarkDefaultProfile(b *testing.B) {
	home, _ := os.UserHomeDir()
	ws := b.TempDir()
	DefaultProfile(ws, home) // go env answered once, then remembered
	for b.Loop() {
		DefaultProfile(ws, home)
	}
}
