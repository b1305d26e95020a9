package checkpoint

import (
	"fmt"
	"os"
	"os/user"
	"strconv"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Owners. A chown in place (sentinel mcp's chown tool, a privileged
// command's) gives the person's Makefile to another user of the machine,
// who can then plant a recipe the person's next make runs (31-ipatk17m).
// So a checkpoint compares each entry's owner and group (OwnerOnly, or a
// note on the line of a change of content or mode), and undo puts them
// back: as root with lchown (never following a link), and as any other
// user it says, one line a path, that it could not (Applied.Owners).
//
// A manifest saved before owners were recorded has no u, g or owners
// fields: its entries read as owned by root, so they are neither compared
// by owner nor given one by undo. One saved from the day owners were
// recorded until the owners field was added (every other owner than
// root's written) is read as recording them when any entry's owner is not
// root's (ownersKnown).

// ownersKnown marks m's entries as recording their owners when m says so,
// or when any of them has an owner other than root (a manifest of the
// days before the Owners field): a manifest from before owners were
// recorded has none.
func ownersKnown(m *Manifest) {
	known := m.Owners
	for i := 0; !known && i < len(m.Entries); i++ {
		known = m.Entries[i].UID != 0 || m.Entries[i].GID != 0
	}
	if !known && m.Top != nil {
		known = m.Top.UID != 0 || m.Top.GID != 0
	}
	if !known {
		return
	}
	m.Owners = true
	for i := range m.Entries {
		m.Entries[i].owned = true
	}
	if m.Top != nil {
		m.Top.owned = true
	}
}

// ownerChanged says whether both entries record an owner and it differs
// (user or group).
func ownerChanged(b, a *Entry) bool {
	return b != nil && a != nil && b.owned && a.owned && (b.UID != a.UID || b.GID != a.GID)
}

// OwnerChanged says whether the entries b and a (of one path) record
// different owners or groups; false when either did not record one.
func OwnerChanged(b, a *Entry) bool { return ownerChanged(b, a) }

// OwnerText is e's owner as `ls -l` names it, user:group, each with its
// number when it has a name ("sentinel-ci(1001):sentinel-ci(1001)").
func OwnerText(e *Entry) string {
	return textsafe.Line(idName(e.UID, false) + ":" + idName(e.GID, true))
}

func idName(id uint32, group bool) string {
	n := strconv.FormatUint(uint64(id), 10)
	var name string
	if group {
		if g, err := user.LookupGroupId(n); err == nil {
			name = g.Name
		}
	} else if u, err := user.LookupId(n); err == nil {
		name = u.Username
	}
	if name == "" || name == n {
		return n
	}
	return name + "(" + n + ")"
}

// ownerLine is the note a change's line carries when its owner changed
// too: " (owner was X, now Y)".
func ownerLine(b, a *Entry) string {
	if !ownerChanged(b, a) {
		return ""
	}
	return fmt.Sprintf(" (owner %s→%s)", OwnerText(b), OwnerText(a))
}

// euid is who undo runs as (a test seam, with asRoot).
var euid = os.Geteuid()

// ownerNotBack says, at plan time, whether undo cannot give the path of
// st its owner back: it does not run as root, the checkpoint recorded an
// owner other than undo's own user, and what is left there is not
// already so owned (a file rewritten or a link or directory made is
// undo's user's; a directory kept keeps its owner).
func ownerNotBack(st Step) bool {
	w := st.Was
	if asRoot || w == nil || !w.owned || w.Kind == KindGit || int(w.UID) == euid {
		return false
	}
	kept := st.Now != nil && st.Now.Kind == KindDir && w.Kind == KindDir
	return !kept || st.Now.UID != w.UID
}

// notBackLine is the step's line for an owner undo cannot put back.
func notBackLine(p string, was *Entry, now string) string {
	return fmt.Sprintf("%s: its owner was %s and is %s now: only root can give it back (`sudo chown -h %d:%d %s`)",
		textsafe.Line(p), OwnerText(was), now, was.UID, was.GID, textsafe.Line(p))
}

// ownerTo is the owner undo gives the path of st once it is put back, and
// whether it gives one: the checkpoint's when it recorded it, else (an
// old manifest) the one the path has now when it stays (untouched).
func ownerTo(st Step, there bool) (uid, gid int, ok bool) {
	switch {
	case st.Was.owned:
		return int(st.Was.UID), int(st.Was.GID), true
	case there && st.Now != nil && st.Now.owned:
		return int(st.Now.UID), int(st.Now.GID), true
	}
	return 0, 0, false
}

// ownerLeft is, after a step, the line for a path whose owner is not the
// checkpoint's, "" when it is (or the checkpoint did not record one).
func ownerLeft(pr interface {
	Lstat(string) (os.FileInfo, error)
}, base, p string, was *Entry) string {
	if !was.owned {
		return ""
	}
	fi, err := pr.Lstat(base)
	if err != nil {
		return ""
	}
	st, ok := filestamp.Of(fi)
	if !ok || (uint32(st.UID) == was.UID && uint32(st.GID) == was.GID) {
		return ""
	}
	now := &Entry{UID: uint32(st.UID), GID: uint32(st.GID)}
	return notBackLine(p, was, OwnerText(now))
}

// owner is the owner undo gives a file it writes, when set.
type owner struct {
	uid, gid int
	set      bool
}
