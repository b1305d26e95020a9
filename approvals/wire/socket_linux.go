package wire

import "syscall"

// sendFlags: a broker that closed its end is an EPIPE error, not a SIGPIPE
// that would kill the hook before it denies.
const sendFlags = syscall.MSG_NOSIGNAL

// newSocket is a close-on-exec unix stream socket.
func newSocket() (int, error) {
	return syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
}
