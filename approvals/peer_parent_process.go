package approvals

import (
	"fmt"

	"github.com/shirou/gopsutil/v4/process"
)

// parentByProcess asks the kernel for pid's parent where there is no /proc: on
// macOS gopsutil reads it with sysctl kern.proc.pid (kinfo_proc's
// e_ppid), on Windows from a process snapshot. A process that cannot be
// read is an error, and InProcessTree refuses the peer. Linux uses its
// own one-read parser (peer_parent_linux.go); a test holds the two equal.
func parentByProcess(pid int) (int, error) {
	if pid <= 0 || pid > 1<<30 {
		return 0, fmt.Errorf("pid %d: out of range", pid)
	}
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0, err
	}
	pp, err := p.Ppid()
	if err != nil {
		return 0, err
	}
	return int(pp), nil
}
