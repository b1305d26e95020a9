//go:build linux && !amd64 && !arm64

package inside

// No filter is written for this architecture: the sandbox's Prepare refuses to sandbox.
const (
	seccompArch      = 0
	archSyscallBit   = 0
	cloneFlagsOffset = offArg0
)

var archDeniedSyscalls []uintptr

var archModeSyscalls []modeSyscall
