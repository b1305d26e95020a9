// Package peercred owns asking the kernel who is at the other end of a
// unix socket: the user id and the process id, one small file per
// platform (SO_PEERCRED on Linux, LOCAL_PEERCRED and LOCAL_PEERPID on
// macOS). Windows' unix sockets tell neither, so there Of always fails
// with ErrUnsupported and every server that admits a peer by its user
// refuses the connection. It must not decide whom to admit.
package peercred

import (
	"errors"
	"net"
	"syscall"
)

// Cred is the peer's identity as the kernel recorded it at connect time.
type Cred struct {
	UID int
	PID int // 0 where the platform does not say
}

// ErrUnsupported: this platform cannot tell a unix socket's peer.
var ErrUnsupported = errors.New("this platform cannot tell who is at the other end of a unix socket, so Sentinel refuses the connection (its service and broker need that check)")

// Of is the credentials of c's peer; c must be a *net.UnixConn.
func Of(c net.Conn) (Cred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Cred{}, errors.New("not a unix connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	return OfRaw(raw)
}

// OfRaw is Of for a raw connection.
func OfRaw(raw syscall.RawConn) (Cred, error) {
	var cred Cred
	var cerr error
	if err := raw.Control(func(fd uintptr) { cred, cerr = ofFD(fd) }); err != nil {
		return Cred{}, err
	}
	return cred, cerr
}
