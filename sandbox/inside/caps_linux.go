package inside

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Secure bits (linux/securebits.h): root gains no capabilities on exec,
// and nothing can undo that.
const (
	secbitNoroot            = 1 << 0
	secbitNorootLocked      = 1 << 1
	secbitNoSetuidFixup     = 1 << 2
	secbitNoSetuidFixLocked = 1 << 3
	secbitKeepCapsLocked    = 1 << 5
)

// dropCapabilities empties this thread's capability sets and bounding set
// and locks root out of regaining them on exec. In the ns backend the helper
// is uid 0 of its user namespace; under bwrap it already holds none. It then
// checks the result and fails closed if anything is left.
func dropCapabilities() error {
	last := lastCap()
	for c := 0; c <= last; c++ {
		unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0) // EPERM when already capless
	}
	unix.Prctl(unix.PR_SET_SECUREBITS, secbitNoroot|secbitNorootLocked|secbitNoSetuidFixup|secbitNoSetuidFixLocked|secbitKeepCapsLocked, 0, 0, 0)
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	st, err := threadCaps()
	if err != nil {
		return err
	}
	if st["CapPrm"] != 0 || st["CapEff"] != 0 || st["CapInh"] != 0 || st["CapAmb"] != 0 {
		return fmt.Errorf("capabilities remain: %v", st)
	}
	if os.Getuid() == 0 && st["CapBnd"] != 0 {
		if bits, _ := unix.PrctlRetInt(unix.PR_GET_SECUREBITS, 0, 0, 0, 0); bits&secbitNoroot == 0 {
			return fmt.Errorf("uid 0 would regain capabilities on exec (bounding set %x)", st["CapBnd"])
		}
	}
	return nil
}

func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return unix.CAP_LAST_CAP
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return unix.CAP_LAST_CAP
	}
	return n
}

// threadCaps reads this thread's capability sets from /proc.
func threadCaps() (map[string]uint64, error) {
	f, err := os.Open("/proc/thread-self/status")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]uint64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.HasPrefix(k, "Cap") {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
	}
	return out, sc.Err()
}
