package wire

import "syscall"

// sendFlags is 0: macOS has no MSG_NOSIGNAL; newSocket sets SO_NOSIGPIPE
// on the socket instead, so a broker that closed its end is an EPIPE
// error, not a SIGPIPE that would kill the hook before it denies.
const sendFlags = 0

// newSocket is a close-on-exec unix stream socket that never raises
// SIGPIPE. macOS has no SOCK_CLOEXEC: the socket is made and marked under
// the fork lock, so no child forked meanwhile inherits it.
func newSocket() (int, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_NOSIGPIPE, 1); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}
