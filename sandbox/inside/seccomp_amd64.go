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
