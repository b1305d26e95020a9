//go:build linux

package inside

import "golang.org/x/sys/unix"

const (
	seccompArch      = unix.AUDIT_ARCH_AARCH64
	archSyscallBit   = 0
	cloneFlagsOffset = offArg0
)

var archDeniedSyscalls []uintptr

// archModeSyscalls: arm64 has only the *at calls (modeSyscalls).
var archModeSyscalls []modeSyscall
