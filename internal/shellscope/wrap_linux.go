package shellscope

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Invoked reports whether this process is the wrapper shown over a shell
// (its executable, as the sandbox shows it, is one of the shells' real
// files and RealDir holds that shell) and the real shell to run. Called
// first in main: one readlink for every other start.
func Invoked() (string, bool) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil || !slices.Contains(names, filepath.Base(exe)) || !filepath.IsAbs(exe) {
		return "", false
	}
	real := RealDir + exe
	if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return real, true
}

// Main is the wrapper: unless this shell is already below a scope
// (scoped), it enters a new Landlock domain scoped for signals, then execs
// real with this process's argv (argv[0] as the caller gave it: a login
// shell's "-bash", "sh" for dash) and environment. A scope it cannot enter
// refuses the shell (exit 126) rather than run it unscoped: the sandbox
// shows the wrapper only where the kernel has the scope (ABI).
func Main(real string) int {
	runtime.LockOSThread() // Landlock and no-new-privs bind the thread that execs
	if !scoped(os.Getppid(), signalZero, parentOf) {
		if !isHook(os.Args, sameFileAsSelf) {
			if n := pidsExhausted(); n > 0 {
				fmt.Fprintf(os.Stderr, "sentinel: this sandbox ran out of processes (its pids limit refused %d starts), so one of the agent's hooks may not have started: no command of the agent runs any more in this run\n", n)
				return 126
			}
			leaveRoomForHooks()
		}
		roots, err := planRoots()
		if err == nil {
			err = enter(roots)
		}
		if err == nil {
			err = refuseOtherProcesses() // seccomp_linux.go
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "sentinel: %s: cannot enter the scope that keeps a command from the agent's hooks and state (%v); not run\n", filepath.Base(real), err)
			return 126
		}
	}
	err := unix.Exec(real, os.Args, os.Environ())
	fmt.Fprintf(os.Stderr, "sentinel: run %s: %v\n", real, err)
	return 127
}

// scoped reports whether a process whose parent is ppid is already in a
// signal scope below the agent's: some ancestor other than pid 1 (the
// sandbox's stage 1, outside the sandbox's own domain) refuses a signal
// with EPERM. Every process in the sandbox is one uid, so EPERM is
// Landlock's scope. An ancestor that cannot be read ends the walk: not
// scoped, so the shell enters a domain (the safe way to be wrong).
func scoped(ppid int, kill func(int) error, parent func(int) int) bool {
	for p, i := ppid, 0; p > 1 && i < 1024; p, i = parent(p), i+1 {
		if kill(p) == unix.EPERM {
			return true
		}
	}
	return false
}

func signalZero(pid int) error { return unix.Kill(pid, 0) }

// parentOf is pid's parent from /proc/PID/stat (0: unknown).
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:]) // state, ppid, ...
	if len(f) < 2 {
		return 0
	}
	n, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return 0
	}
	return n
}

// enter puts the calling thread (and what it execs) in a new Landlock
// domain scoped for signals. With roots (the sandbox's writable roots less
// the agent's state, writes_linux.go) it also handles the write rights and
// grants them under roots only: writing the agent's state is closed too.
// Without, it handles no file or network right: nothing it could reach
// before is closed, except signalling a process outside it.
func enter(roots []string) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no-new-privs: %w", err)
	}
	abi := ABI()
	if abi < ScopeABI {
		return fmt.Errorf("the kernel's Landlock ABI is %d; a signal scope needs %d", abi, ScopeABI)
	}
	attr := unix.LandlockRulesetAttr{Scoped: unix.LANDLOCK_SCOPE_SIGNAL}
	if len(roots) > 0 {
		attr.Handled_access_fs = writeRights(abi)
	}
	size := unsafe.Offsetof(attr.Quiet_access_fs) // the fields ABI 6 knows
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return fmt.Errorf("create ruleset: %w", e)
	}
	defer unix.Close(int(fd))
	if err := addWriteRules(int(fd), roots, attr.Handled_access_fs); err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); e != 0 {
		return fmt.Errorf("restrict self: %w", e)
	}
	return nil
}

// ABI is the Landlock ABI version the kernel offers (0: none). The signal
// scope needs 6.
func ABI() int {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0
	}
	return int(v)
}
