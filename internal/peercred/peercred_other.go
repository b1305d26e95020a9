//go:build !linux && !darwin

package peercred

func ofFD(fd uintptr) (Cred, error) { return Cred{}, ErrUnsupported }
