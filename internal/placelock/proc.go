package placelock

import "github.com/shirou/gopsutil/v4/process"

// processStart is pid's creation time (ms since the epoch), 0 when it is
// gone or cannot be read.
func processStart(pid int) int64 {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0
	}
	t, err := p.CreateTime()
	if err != nil {
		return 0
	}
	return t
}

// processExists says whether pid is a process now.
func processExists(pid int) bool {
	ok, err := process.PidExists(int32(pid))
	return err == nil && ok
}
