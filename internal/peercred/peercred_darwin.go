package peercred

import "golang.org/x/sys/unix"

// ofFD asks for the peer's xucred (its effective uid at connect time) and
// its pid; a pid the kernel will not give is an error, not 0, so a caller
// that records the peer's process never records a guess.
func ofFD(fd uintptr) (Cred, error) {
	x, err := unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return Cred{}, err
	}
	pid, err := unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	if err != nil {
		return Cred{}, err
	}
	return Cred{UID: int(x.Uid), PID: pid}, nil
}
