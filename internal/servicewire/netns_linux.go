package servicewire

import (
	"fmt"
	"strconv"
	"syscall"
)

// sameNetNS refuses a peer in another network namespace than the
// service's. Every Sentinel sandbox has a private one (its only way out is
// the proxy), so a sandboxed process that still reaches the socket — a
// configured path that covers the runtime dir, a bind the person added —
// is told apart from the person's own tools by what it is, not by where
// the socket lies: it could otherwise answer the approval queue's cards,
// its own included. Where this process cannot read its own namespace
// (no /proc) there is nothing to compare and the uid check stands alone.
func sameNetNS(pid int) error {
	var self syscall.Stat_t
	if err := syscall.Stat("/proc/self/ns/net", &self); err != nil {
		return nil
	}
	if pid <= 0 {
		return fmt.Errorf("the peer's process is not visible from the service's pid namespace")
	}
	var peer syscall.Stat_t
	if err := syscall.Stat("/proc/"+strconv.Itoa(pid)+"/ns/net", &peer); err != nil {
		return fmt.Errorf("the peer's network namespace cannot be read: %w", err)
	}
	if peer.Ino != self.Ino || peer.Dev != self.Dev {
		return fmt.Errorf("peer pid %d is in another network namespace (a sandbox): only the person's own processes use the service", pid)
	}
	return nil
}
