package checkpoint

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// A file's or directory's extended attributes in the user namespace and
// its file capabilities (security.capability) are part of what a run can
// change and undo must put back: a coder in the sandbox may set user.*
// attributes (the owner may), and a rewrite of a file drops the
// capabilities the person gave it. The record holds them in one string
// (xattrsOf), compared like the mode.

// maxXAttrs bounds the attributes read of one path; past it the record
// says so ("?") rather than holding a part.
const maxXAttrs = 64 << 10

// recordedXAttr says whether the record keeps the attribute name.
func recordedXAttr(name string) bool {
	return strings.HasPrefix(name, "user.") || name == "security.capability"
}

// plainXAttrName says whether name can stand in the record's
// "name=hex" lines: no newline, no "=".
func plainXAttrName(name string) bool {
	return !strings.ContainsAny(name, "\n=")
}

// xattrsOf are the recorded attributes of path (not following a link),
// as "name=hexvalue" joined by newlines in name order; "" for none or
// where they cannot be listed, "?" when they are over maxXAttrs.
func xattrsOf(path string) string {
	return readXAttrs(func(b []byte) (int, error) { return unix.Llistxattr(path, b) },
		func(name string, b []byte) (int, error) { return unix.Lgetxattr(path, name, b) })
}

// xattrsOfFile is xattrsOf of the open f.
func xattrsOfFile(f *os.File) string {
	fd := int(f.Fd())
	return readXAttrs(func(b []byte) (int, error) { return unix.Flistxattr(fd, b) },
		func(name string, b []byte) (int, error) { return unix.Fgetxattr(fd, name, b) })
}

func readXAttrs(list func([]byte) (int, error), get func(string, []byte) (int, error)) string {
	sz, err := list(nil)
	if err != nil || sz <= 0 {
		return ""
	}
	if sz > maxXAttrs {
		return "?"
	}
	buf := make([]byte, sz)
	n, err := list(buf)
	if err != nil || n <= 0 {
		return ""
	}
	var names []string
	for _, b := range bytes.Split(buf[:n], []byte{0}) {
		if name := string(b); recordedXAttr(name) {
			if !plainXAttrName(name) {
				// A name with a newline or "=" would read back as
				// other lines of the record (a coder's
				// "user.x\nsecurity.capability" as a capability
				// undo sets as root): the record cannot hold it.
				return "?"
			}
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var out []string
	total := 0
	for _, name := range names {
		vs, err := get(name, nil)
		if err != nil {
			continue
		}
		if total += len(name) + vs; total > maxXAttrs {
			return "?"
		}
		v := make([]byte, vs)
		if n, err := get(name, v); err == nil {
			out = append(out, name+"="+hex.EncodeToString(v[:n]))
		}
	}
	return strings.Join(out, "\n")
}

// setXAttrs makes the recorded attributes of the open f what want (as
// xattrsOf spells it) says: the ones it does not name are removed.
func setXAttrs(f *os.File, want string) error {
	if want == "?" {
		return errors.New("its extended attributes were over the checkpoint's bound: not put back")
	}
	fd := int(f.Fd())
	keep := map[string][]byte{}
	for _, kv := range strings.Split(want, "\n") {
		name, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if !recordedXAttr(name) || !plainXAttrName(name) {
			return errors.New("its recorded extended attributes name one the record does not keep: not put back")
		}
		b, err := hex.DecodeString(v)
		if err != nil {
			return err
		}
		keep[name] = b
	}
	if sz, err := unix.Flistxattr(fd, nil); err == nil && sz > 0 {
		buf := make([]byte, sz)
		if n, err := unix.Flistxattr(fd, buf); err == nil {
			for _, b := range bytes.Split(buf[:n], []byte{0}) {
				name := string(b)
				if _, ok := keep[name]; !ok && recordedXAttr(name) {
					if err := unix.Fremovexattr(fd, name); err != nil && !errors.Is(err, unix.ENODATA) {
						return err
					}
				}
			}
		}
	}
	names := make([]string, 0, len(keep))
	for name := range keep {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := unix.Fsetxattr(fd, name, keep[name], 0); err != nil {
			return err
		}
	}
	return nil
}
