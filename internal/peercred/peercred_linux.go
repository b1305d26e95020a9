package peercred

import "golang.org/x/sys/unix"

func ofFD(fd uintptr) (Cred, error) {
	c, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return Cred{}, err
	}
	return Cred{UID: int(c.Uid), PID: int(c.Pid)}, nil
}
