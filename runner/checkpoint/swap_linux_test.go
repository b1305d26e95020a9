//go:build linux

package checkpoint

import "testing"

// The same swaps, read as on a kernel without openat2: through the
// place's os.Root, with the (device, inode) check.
func TestSwapsWithoutOpenat2(t *testing.T) {
	t.Run("outside", func(t *testing.T) { testASwappedDirectory(t, Options{noOpenat2: true}) })
	t.Run("inside", func(t *testing.T) { testAFileReplaced(t, Options{noOpenat2: true}) })
}
