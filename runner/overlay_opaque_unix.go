//go:build unix

package runner

import "golang.org/x/sys/unix"

// overlayOpaque says the upper directory dir hides the lower one's entries.
func overlayOpaque(dir string) bool {
	for _, attr := range []string{"user.overlay.opaque", "trusted.overlay.opaque"} {
		buf := make([]byte, 4)
		if n, err := unix.Lgetxattr(dir, attr, buf); err == nil && n > 0 && buf[0] == 'y' {
			return true
		}
	}
	return false
}
