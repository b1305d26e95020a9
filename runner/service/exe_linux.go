package service

import (
	"os"
	"strconv"
)

// procExe is the file pid runs, as the kernel names it: its /proc exe
// link (stat through it is the running file itself, even if renamed).
func procExe(pid int) (path string, st os.FileInfo) {
	link := "/proc/" + strconv.Itoa(pid) + "/exe"
	st, _ = os.Stat(link)
	path, _ = os.Readlink(link)
	return path, st
}
