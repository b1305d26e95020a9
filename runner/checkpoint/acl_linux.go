package checkpoint

import (
	"encoding/hex"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// defaultACLName is the extended attribute holding a directory's POSIX
// default ACL: the permissions every file made in it later takes instead
// of what the umask of the program making it would give.
const defaultACLName = "system.posix_acl_default"

// defaultACL is the default ACL of the directory at path (not following
// a link), hex-encoded; "" when it has none or it cannot be read.
func defaultACL(path string) string {
	buf := make([]byte, 256)
	for {
		n, err := unix.Lgetxattr(path, defaultACLName, buf)
		if errors.Is(err, unix.ERANGE) && len(buf) < 1<<16 {
			buf = make([]byte, 4*len(buf))
			continue
		}
		if err != nil || n == 0 {
			return ""
		}
		return hex.EncodeToString(buf[:n])
	}
}

// setDefaultACL gives the open directory f the default ACL acl (as
// defaultACL spells it), or takes its default ACL away when acl is "".
func setDefaultACL(f *os.File, acl string) error {
	if acl == "" {
		err := unix.Fremovexattr(int(f.Fd()), defaultACLName)
		if errors.Is(err, unix.ENODATA) || errors.Is(err, unix.ENOTSUP) {
			return nil
		}
		return err
	}
	b, err := hex.DecodeString(acl)
	if err != nil {
		return err
	}
	return unix.Fsetxattr(int(f.Fd()), defaultACLName, b, 0)
}
