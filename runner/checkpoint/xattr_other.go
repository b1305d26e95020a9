//go:build !linux

package checkpoint

import "os"

// xattrsOf is "" where Sentinel does not read extended attributes.
func xattrsOf(string) string { return "" }

// setXAttrs has nothing to put back where xattrsOf reads nothing.
func setXAttrs(_ *os.File, want string) error { return nil }

// xattrsOfFile is "" where xattrsOf reads nothing.
func xattrsOfFile(*os.File) string { return "" }
