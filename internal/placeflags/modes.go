package placeflags

import (
	"fmt"
	"io/fs"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// Writable says when the coder made a file or directory writable by
// other users (chmod o+w Makefile, g+w on a directory): another user of
// the machine can then change it, or plant a file in it, and the person
// runs that code. A new entry is judged by o+w only (g+w is what a
// umask of 002 gives every file); one that was there by any write bit for
// group or others that it did not have. Symbolic links have no mode of
// their own. The reason starts with Dangerous.
func Writable(c checkpoint.Change) string {
	a, b := c.After, c.Before
	if a == nil || a.Kind == checkpoint.KindSymlink {
		return ""
	}
	var bits fs.FileMode = 0o002
	if b != nil && b.Kind == a.Kind {
		bits = 0o022
	}
	added := a.Mode & bits
	if b != nil && b.Kind == a.Kind {
		added &^= b.Mode
	}
	if added == 0 {
		return ""
	}
	who, fix := "group-writable", "g-w"
	switch {
	case added&0o022 == 0o022:
		who, fix = "group- and world-writable", "go-w"
	case added&0o002 != 0:
		who, fix = "world-writable", "o-w"
	}
	return fmt.Sprintf("%smade %s (%04o): another user of this machine can now change it and plant code; `chmod %s %s` if you did not mean it", Dangerous, who, checkpoint.UnixMode(a.Mode), fix, c.Path)
}

// DefaultACL says when the change gave a directory a new default ACL:
// the files the person's tools make in it later take its permissions
// instead of their umask's, which can let another user of the machine
// change them. The reason starts with Dangerous.
func DefaultACL(c checkpoint.Change) string {
	a, b := c.After, c.Before
	if a == nil || a.Kind != checkpoint.KindDir || a.DefACL == "" || (b != nil && b.Kind == checkpoint.KindDir && b.DefACL == a.DefACL) {
		return ""
	}
	return fmt.Sprintf("%sa new default ACL: files made in it later take its permissions, not your umask (another user of this machine may be able to change them); `setfacl -k %s` takes it away if you did not mean it", Dangerous, c.Path)
}

// Modes are the Writable and DefaultACL flags of changes.
func Modes(changes []checkpoint.Change) []Flag {
	var out []Flag
	for _, c := range changes {
		for _, why := range []string{DefaultACL(c), Writable(c)} {
			if why != "" {
				out = append(out, Flag{c.Path, why})
			}
		}
	}
	return out
}
