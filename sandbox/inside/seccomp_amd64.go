//go:build linux

package inside

import "golang.org/x/sys/unix"

const (
	seccompArch = unix.AUDIT_ARCH_X86_64
	// archSyscallBit marks x32 system calls, refused like 32-bit ones.
	archSyscallBit   = 0x40000000
	cloneFlagsOffset = offArg0
)

var archDeniedSyscalls = []uintptr{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB}

// archModeSyscalls are the older calls x86-64 keeps that set a file's mode.
var archModeSyscalls = []modeSyscall{
	{unix.SYS_CHMOD, "mode1"}, {unix.SYS_CREAT, "mode1"}, {unix.SYS_MKNOD, "mode1"}, {unix.SYS_OPEN, "open-flags1"},
}
