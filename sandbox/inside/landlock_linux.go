package inside

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock goes through raw syscalls (golang.org/x/sys/unix), not the
// kernel maintainers' go-landlock, for a measured reason: go-landlock's
// syscall package imports libcap's psx, which under cgo (the default where a
// C compiler exists) links C that wraps pthread_create and forces external
// linking; every sentinel process, hooks included, then peaked at 59.5 MiB
// instead of 40.6 (`sentinel version`). TestLandlockAlone pins what these
// rules refuse, whichever way they are applied.
//
// Landlock access rights (uapi/linux/landlock.h), grouped the way the
// sandbox grants them.
const (
	llRead = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	// llFileRights are the rights that make sense on a file (not a directory).
	llFileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llDevRW = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// llHandled is every filesystem right the kernel's ABI knows (up to the
// ones this code grants): the sandbox handles all of them, so anything not
// granted below is denied.
func llHandled(abi int) uint64 {
	switch {
	case abi >= 5:
		return (1 << 16) - 1
	case abi >= 3:
		return (1 << 15) - 1
	case abi == 2:
		return (1 << 14) - 1
	case abi == 1:
		return (1 << 13) - 1
	}
	return 0
}

type llRule struct {
	path   string
	access uint64
}

// landlockRules are the paths the command may use, as seen inside the
// sandbox: system and configured locations read-only, the workspace, the
// agent's state and /tmp writable, and a handful of device files.
func landlockRules(sp Spec, rw uint64) []llRule {
	// Listing "/" and its descendants is harmless: the root holds only
	// what the profile shows, and READ_DIR grants no file contents.
	r := []llRule{{"/", unix.LANDLOCK_ACCESS_FS_READ_DIR}}
	for _, p := range systemReadable {
		r = append(r, llRule{p, llRead})
	}
	for _, p := range append(append([]string{}, sp.Readable...), sp.ReadOnly...) {
		r = append(r, llRule{p, llRead})
	}
	for _, pl := range sp.Places {
		r = append(r, llRule{pl.Path, llRead})
	}
	r = append(r, llRule{"/dev", unix.LANDLOCK_ACCESS_FS_READ_DIR})
	for _, d := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"} {
		r = append(r, llRule{d, llDevRW})
	}
	for _, p := range append([]string{sp.Workspace, "/tmp", "/dev/pts", "/dev/shm"}, sp.Writable...) {
		r = append(r, llRule{p, rw})
	}
	return r
}

// restrictLandlock confines the calling thread (and what it execs).
func restrictLandlock(sp Spec) error {
	abi := LandlockABI()
	handled := llHandled(abi)
	if handled == 0 {
		return fmt.Errorf("the kernel offers no Landlock; run with --sandbox off knowingly")
	}
	attr := unix.LandlockRulesetAttr{Handled_access_fs: handled}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	}
	size := unsafe.Offsetof(attr.Quiet_access_fs) // the fields every ABI up to 9 knows
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return fmt.Errorf("create ruleset: %w", e)
	}
	defer unix.Close(int(fd))
	rules, err := carveDenied(landlockRules(sp, handled), sp.Denied)
	if err != nil {
		return err
	}
	for _, rule := range rules {
		if err := addLandlockRule(int(fd), rule, handled); err != nil {
			return err
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); e != 0 {
		return fmt.Errorf("restrict self: %w", e)
	}
	return nil
}

func addLandlockRule(rulesetFD int, r llRule, handled uint64) error {
	pfd, err := unix.Open(r.path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if os.IsNotExist(err) || os.IsPermission(err) {
			return nil // a location missing or closed to us grants nothing
		}
		return fmt.Errorf("open %s: %w", r.path, err)
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return fmt.Errorf("stat %s: %w", r.path, err)
	}
	access := r.access & handled
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= llFileRights
	}
	if access == 0 {
		return nil
	}
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(pfd)}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rulesetFD), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e != 0 {
		return fmt.Errorf("rule for %s: %w", r.path, e)
	}
	return nil
}

// LandlockABI is the Landlock ABI version the kernel offers (0: none).
func LandlockABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}
