package servicewire

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/peercred"
)

// SocketName is the service socket's file name inside Dir.
const SocketName = "service.sock"

// Dir is the directory that holds the service socket:
// $XDG_RUNTIME_DIR/sentinel when XDG_RUNTIME_DIR is an absolute path, else
// /tmp/sentinel-UID. It is created 0700 when missing; an existing one that
// is not a directory owned by this user with no access for others is an
// error (someone else could have placed a socket there).
func Dir() (string, error) {
	dir := DirPath()
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("create the service directory %s: %w", dir, err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	sys, ok := filestamp.Of(st)
	if !ok { // Windows: no owner to check, and no peer to check either (see peercred)
		return "", fmt.Errorf("the service directory %s: %w", dir, peercred.ErrUnsupported)
	}
	if !st.IsDir() || sys.UID != os.Getuid() || st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("the service directory %s is not a private directory of this user (want mode 0700, owner uid %d): remove it and start the service again", dir, os.Getuid())
	}
	return dir, nil
}

// DirPath is where Dir is, without creating or checking it (a run hides
// it from its sandbox).
func DirPath() string {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		return filepath.Join(rt, "sentinel")
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("sentinel-%d", os.Getuid()))
}

// SocketPath is the service socket's path (see Dir).
func SocketPath() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, SocketName), nil
}
