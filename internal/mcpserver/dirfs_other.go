//go:build !unix

package mcpserver

import (
	"io/fs"
	"strings"
)

// defaultLayer is the layer a server uses unless a test picks another.
func defaultLayer() fileLayer { return rootLayer{} }

// oNonblock: Windows opens do not hang on a fifo.
const oNonblock = 0

// identOf: Windows has no device and inode in a FileInfo; os.SameFile
// compares volume and file index instead (see sameFile).
func identOf(fs.FileInfo) (ident, bool) { return ident{}, false }

func isEXDEV(err error) bool { return false }

// samePathText compares path text as Windows file systems do, without
// regard to case.
func samePathText(a, b string) bool { return strings.EqualFold(a, b) }

// linkCount: chown, the one user, does not run on these platforms.
func linkCount(fs.FileInfo) uint64 { return 1 }
