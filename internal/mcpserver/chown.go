package mcpserver

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
)

// chownArgs is what the chown tool takes.
type chownArgs struct {
	Path  string `json:"path" jsonschema:"absolute path of a file or directory under an rw path (not a symlink)"`
	Owner string `json:"owner,omitempty" jsonschema:"user name or numeric uid (empty: unchanged)"`
	Group string `json:"group,omitempty" jsonschema:"group name or numeric gid (empty: unchanged)"`
}

// chown changes the owner and group of an entry under an rw path. It acts
// on the open entry (opened without following a symlink), never on path
// text, so a swap after the check cannot redirect it; and it refuses a
// file with more than one hard link, whose other names may lie outside the
// configured paths (changing the inode changes them all).
func (s *Server) chown(a chownArgs) (string, error) {
	if a.Owner == "" && a.Group == "" {
		return "", &Refusal{Class: ClassBadInput, Rule: "chown", Reason: "chown needs an owner, a group or both", Use: "e.g. owner=\"www-data\" group=\"www-data\", or owner=\"1000\""}
	}
	uid, err := lookupID(a.Owner, "owner", func(n string) (string, error) {
		u, err := user.Lookup(n)
		if err != nil {
			return "", err
		}
		return u.Uid, nil
	})
	if err != nil {
		return "", err
	}
	gid, err := lookupID(a.Group, "group", func(n string) (string, error) {
		g, err := user.LookupGroup(n)
		if err != nil {
			return "", err
		}
		return g.Gid, nil
	})
	if err != nil {
		return "", err
	}
	r, st, err := s.entry(a.Path)
	if err != nil {
		return "", err
	}
	defer r.close()
	pl := r.pl
	if st.Mode()&fs.ModeSymlink != 0 {
		return "", &Refusal{Class: ClassBadInput, Reason: pl.Abs + " is a symlink", Use: "chown the target's own path"}
	}
	f, err := s.openOwned(r, "chown")
	if err != nil {
		return "", err
	}
	defer f.Close()
	was, err := f.Stat()
	if err != nil {
		return "", fileErr(pl, err)
	}
	if err := f.Chown(uid, gid); err != nil {
		return "", fileErr(pl, err)
	}
	msg := fmt.Sprintf("%s is now owned by %s", pl.Abs, ownerText(a, uid, gid))
	// A checkpoint's diff compares content and modes, not owners: a
	// Makefile given to another user of the machine (who may then plant
	// a recipe the person runs) would be told to no one but the client.
	if to := handedTo(was, uid, gid); to != "" {
		warn := fmt.Sprintf("DANGEROUS: %s was given to %s, who can now change it and plant code you run from it; chown it back if you did not mean it", pl.Abs, to)
		tellPerson("chown: " + warn)
		msg += "\n" + warn
	}
	return msg, nil
}

// openOwned opens r's entry without following it, for a change of its
// owner or mode (op), and refuses it when it is Sentinel's own state or a
// file with more than one hard link: another of its names may lie outside
// the configured paths, and the change would reach it there too.
func (s *Server) openOwned(r reached, op string) (*os.File, error) {
	pl := r.pl
	f, err := r.openEntry(os.O_RDONLY | oNonblock)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fileErr(pl, err)
	}
	if err := s.state.check(fi, pl.Abs); err != nil {
		f.Close()
		return nil, err
	}
	if n := linkCount(fi); !fi.IsDir() && n > 1 {
		f.Close()
		return nil, &Refusal{Class: ClassPathNotAllowed, Rule: "paths", Reason: fmt.Sprintf("%s has %d hard links; another of its names may lie outside the configured paths", pl.Abs, n), Use: "copy the file to a new name and " + op + " the copy"}
	}
	return f, nil
}

// lookupID is a name or a number as an id; "" is -1 (unchanged).
func lookupID(v, what string, byName func(string) (string, error)) (int, error) {
	if v == "" {
		return -1, nil
	}
	if n, err := strconv.ParseUint(v, 10, 31); err == nil {
		return int(n), nil
	}
	if v[0] >= '0' && v[0] <= '9' || v[0] == '-' || v[0] == '+' {
		return 0, &Refusal{Class: ClassBadInput, Rule: "chown", Reason: fmt.Sprintf("%s %q: give a name or a number from 0 to 2147483647", what, v), Use: "e.g. " + what + "=\"1000\" or a name from the system's " + what + " list"}
	}
	id, err := byName(v)
	if err != nil {
		return 0, &Refusal{Class: ClassNotFound, Rule: "chown", Reason: fmt.Sprintf("no %s named %q on this system", what, v), Use: "give an existing " + what + " name or a numeric id"}
	}
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 {
		return 0, &Refusal{Class: ClassBadInput, Rule: "chown", Reason: fmt.Sprintf("%s %q has no numeric id here (%q)", what, v, id), Use: "give a numeric id"}
	}
	return n, nil
}

func ownerText(a chownArgs, uid, gid int) string {
	part := func(name string, id int) string {
		switch {
		case id < 0:
			return "(unchanged)"
		case name == strconv.Itoa(id):
			return name
		}
		return fmt.Sprintf("%s (%d)", name, id)
	}
	return part(a.Owner, uid) + ":" + part(a.Group, gid)
}
