//go:build linux

package checkpoint

import "testing"

// The same swaps, read as on a kernel without openat2: through the
// place's os.Root, with the (device, inode) check.
func TestSwapsWithoutOpenat2(t *testing.T) {
	useOpenat2 = false
	t.Cleanup(func() { useOpenat2 = true })
	t.Run("outside", TestASwappedDirectoryNeverStoresWhatIsOutside)
	t.Run("inside", TestAFileReplacedAfterTheWalkIsNotCovered)
}
