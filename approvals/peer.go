package approvals

import "fmt"

// A run's broker answers its own coder only. Another live run's coder
// (same user, so SO_PEERCRED's uid passes) that finds this socket — in a
// project's .sentinel/runs, or passed on by a path — must be refused, or it
// could ask in this run's name and put "coder reports: …" on its screen.
// The socket's path and mode say nothing about who connects; the peer's
// process does: it must be the run's own process or one it started (its
// coder's tree, inside the sandbox or not), whatever namespace it is in
// (SO_PEERCRED gives its pid as the broker's namespace sees it).

// maxTreeDepth bounds the walk up a peer's parents.
const maxTreeDepth = 128

// InProcessTree is a BrokerConfig.Peer check: the peer must be the process
// root or a descendant of it (its parents, read from /proc, reach root).
// A process whose parents cannot be read is refused.
func InProcessTree(root int) func(pid int) error {
	return func(pid int) error {
		p := pid
		for i := 0; i < maxTreeDepth; i++ {
			if p == root {
				return nil
			}
			if p <= 1 {
				break
			}
			pp, err := parentPID(p)
			if err != nil {
				return fmt.Errorf("peer pid %d: %w", pid, err)
			}
			p = pp
		}
		return fmt.Errorf("peer pid %d is not this run's process or one it started: only the run's own coder may use its broker", pid)
	}
}
