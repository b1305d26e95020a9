//go:build unix

package journal

import "syscall"

// noFollow makes an open fail on a symbolic link in the last element: a
// journal is never read or written through a link planted in its place.
// (The journal imports nothing beyond the standard library: the hook links
// it, and its closure is kept small — see runner/hookclient.)
const noFollow = syscall.O_NOFOLLOW
