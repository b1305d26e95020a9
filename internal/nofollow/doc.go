// Package nofollow owns opening a file without following a symbolic link
// at its last element, the same call on every platform. On Linux and macOS
// that is the kernel's O_NOFOLLOW (an open of a link fails with ELOOP). On
// Windows, which has no such open flag for CreateFile's callers here, it is
// an Lstat that refuses links and other reparse points, the open, and a
// check that what was opened is what was looked at — weaker: a link planted
// and removed again between the two is not seen, though what was opened is
// never a link's target that differs from the file looked at.
package nofollow
