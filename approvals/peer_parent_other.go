//go:build !linux

package approvals

// parentPID: without /proc, the kernel's own answer (sysctl on macOS).
func parentPID(pid int) (int, error) { return parentByProcess(pid) }
