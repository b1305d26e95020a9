//go:build !linux

package servicewire

// sameNetNS: only Linux names a process's network namespace (and only
// there does Sentinel's sandbox make one); elsewhere the uid check stands.
func sameNetNS(pid int) error { return nil }
