//go:build !linux

package checkpoint

import "os"

// defaultACL is "" where Sentinel does not read POSIX default ACLs.
func defaultACL(string) string { return "" }

// setDefaultACL has nothing to put back where defaultACL reads nothing.
func setDefaultACL(_ *os.File, acl string) error { return nil }
