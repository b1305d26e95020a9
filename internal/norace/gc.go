package norace

import (
	"os"
	"runtime/debug"
)

// The child's tests are sweeps over corpora whose live heap is a few
// megabytes while they allocate gigabytes, so at Go's default pace
// (GOGC=100) the collector ran every few megabytes and was about a third
// of their CPU: policy's sweeps 45.9 CPU-s at GOGC=100, 32.1 with
// childGCPercent and childMemoryLimit, peak RSS 403 MB and 399 MB (the
// deep-text tests' megabytes of nested shell set the peak either way;
// the limit keeps it there). Measured 2026-12-07 on the 2-core machine.
// Only the child test process is paced so: not the go command that builds
// it, nor the parent, nor any program a test starts.
const (
	childGCPercent   = 800
	childMemoryLimit = 400 << 20
)

// loosenGC paces the child's collector (childGCPercent, with
// childMemoryLimit as the soft bound on its heap), unless the person set
// GOGC or GOMEMLIMIT, which the runtime has already obeyed.
func loosenGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(childGCPercent)
	debug.SetMemoryLimit(childMemoryLimit)
}
