//go:build unix

package sudoedit

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
)

// Listen is the helper's socket: the one systemd passed (socket
// activation, fd 3) or, without, a new one at socket that only uid (and
// root) can open, in a directory only root writes. A file already at
// socket is replaced only if it is a socket.
func Listen(socket string, uid int) (net.Listener, error) {
	if pid, _ := strconv.Atoi(os.Getenv("LISTEN_PID")); pid == os.Getpid() {
		if n, _ := strconv.Atoi(os.Getenv("LISTEN_FDS")); n == 1 {
			f := os.NewFile(3, "systemd socket")
			ln, err := net.FileListener(f)
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("the socket systemd passed: %v", err)
			}
			if _, ok := ln.(*net.UnixListener); !ok {
				ln.Close()
				return nil, errors.New("the socket systemd passed is not a unix socket (ListenStream=/run/…)")
			}
			return ln, nil
		}
		return nil, errors.New("systemd passed more than one socket; give the helper one ListenStream")
	}
	// Only root may make entries beside the socket: no one can put a
	// link where the socket is made and then chowned and chmodded.
	if err := rootOnly(filepath.Dir(socket)); err != nil {
		return nil, fmt.Errorf("the socket's directory: %v (give --socket in a root-only directory such as /run)", err)
	}
	if fi, err := os.Lstat(socket); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s exists and is not a socket; remove it or give --socket", socket)
		}
		os.Remove(socket)
	}
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, err
	}
	if err := os.Lchown(socket, uid, 0); err != nil {
		ln.Close()
		return nil, err
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}
