//go:build linux && !amd64 && !arm64

package sandbox

// No filter is written for this architecture: Prepare refuses to sandbox.
const (
	seccompArch      = 0
	archSyscallBit   = 0
	cloneFlagsOffset = offArg0
)

var archDeniedSyscalls []uintptr
