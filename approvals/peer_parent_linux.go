package approvals

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// parentPID reads pid's parent from /proc/<pid>/stat (after the command
// name, which may hold any byte, ")" included). One small read per step:
// the broker walks it on every connection.
func parentPID(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/stat: too short", pid)
	}
	return strconv.Atoi(string(f[1]))
}
