package sandbox

import (
	"os"
	"path/filepath"
)

// maxSocketPath is the longest socket path used: a unix socket's path must
// fit sun_path (108 bytes on Linux, 104 on macOS, with its NUL).
const maxSocketPath = 100

// makeProxyDir makes the private directory the proxy's socket lives in:
// proxy/ under the sandbox's state dir, or, when a deep temp dir (a long
// TMPDIR) would make the socket's path too long to listen on, a private
// directory of its own under /tmp (0700, a name nobody can guess), removed
// by Close. Processes inside reach it through an inherited descriptor of
// the directory, never by its path.
func (s *Sandbox) makeProxyDir() (string, error) {
	dir := filepath.Join(s.base, "proxy")
	if len(filepath.Join(dir, "proxy.sock")) < maxSocketPath {
		return dir, os.Mkdir(dir, 0o700)
	}
	d, err := os.MkdirTemp("/tmp", "sentinel-px-")
	if err != nil {
		return dir, os.Mkdir(dir, 0o700) // listening there says why it cannot
	}
	s.shortDir = d
	return d, nil
}
