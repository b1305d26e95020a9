package placeflags

import (
	"fmt"

	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Owner says when the change gave a path that was there to another user
// of the machine (a chown in place: sentinel mcp's chown tool, a command
// run as root), or to another group while it is group-writable: that
// user or group can then change it and plant code the person runs (their
// Makefile given to another user gets a recipe the person's next make
// runs: 31-ipatk17m). A path given to root is not flagged (root can
// change it anyway). A file that runs code later (policy.RunsLaterHere)
// says so, as a change of its content would. The reason starts with
// Dangerous. c.Path is relative to the place; shown is the path the fix
// names (the whole path, for sentinel mcp's answer).
func Owner(c checkpoint.Change, shown string) string {
	a, b := c.After, c.Before
	if !checkpoint.OwnerChanged(b, a) || a.Kind != b.Kind {
		return ""
	}
	var to string
	switch {
	case a.UID != b.UID && a.UID != 0:
		to = "another user of this machine"
	case a.GID != b.GID && a.Kind != checkpoint.KindSymlink && a.Mode&0o020 != 0:
		to = "another group (it is group-writable)"
	default:
		return ""
	}
	later := ""
	if e, ok := policy.RunsLaterHere(c.Path); ok && a.Kind != checkpoint.KindDir {
		later = fmt.Sprintf(", and it runs code later (%s)", e.Reason)
	}
	return fmt.Sprintf("%sgiven to %s (owner %s→%s)%s: they can now change it and plant code you run; `chown -h %d:%d %s` gives it back if you did not mean it",
		Dangerous, to, checkpoint.OwnerText(b), checkpoint.OwnerText(a), later, b.UID, b.GID, shown)
}
