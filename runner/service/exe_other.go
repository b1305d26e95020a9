//go:build !linux

package service

import (
	"context"
	"os"

	"github.com/shirou/gopsutil/v4/process"
)

// procExe is the file pid runs, where there is no /proc: the kernel's
// answer through gopsutil (proc_pidpath on macOS), then a stat of that
// path.
func procExe(pid int) (path string, st os.FileInfo) {
	p, err := process.NewProcessWithContext(context.Background(), int32(pid))
	if err != nil {
		return "", nil
	}
	path, err = p.Exe()
	if err != nil || path == "" {
		return "", nil
	}
	st, _ = os.Stat(path)
	return path, st
}
