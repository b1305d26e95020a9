package inside

import (
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// startForwarder listens on the namespace's loopback and passes each
// connection to Sentinel's proxy socket, reached through the inherited
// directory descriptor (its path may be hidden inside). It is built on raw
// sockets wrapped as files (Go's poller waits on them), not on the net
// package: net links the cgo resolver, which makes this binary — the hook's
// too — start through the dynamic loader and libc. Like net's listener and
// connections it sets SO_REUSEADDR and TCP_NODELAY.
func startForwarder(port int) error {
	unix.CloseOnExec(proxyFD)
	_, err := forward(port, "/proc/self/fd/"+strconv.Itoa(proxyFD)+"/proxy.sock")
	return err
}

// forward listens on 127.0.0.1:port (0: a free port) and bridges each
// connection to the unix socket at target; it returns the port.
func forward(port int, target string) (int, error) {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	if err := listenLoopback(fd, port); err != nil {
		unix.Close(fd)
		return 0, err
	}
	if sa, err := unix.Getsockname(fd); err == nil {
		port = sa.(*unix.SockaddrInet4).Port
	}
	ln := os.NewFile(uintptr(fd), "proxy bridge")
	rc, err := ln.SyscallConn()
	if err != nil {
		ln.Close()
		return 0, err
	}
	go func() {
		for {
			var c int
			var aerr error
			err := rc.Read(func(lfd uintptr) bool {
				c, _, aerr = unix.Accept4(int(lfd), unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
				return aerr != unix.EAGAIN
			})
			switch {
			case err != nil:
				return
			case aerr == unix.EINTR || aerr == unix.ECONNABORTED:
				continue
			case aerr != nil:
				return
			}
			unix.SetsockoptInt(c, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
			go bridge(os.NewFile(uintptr(c), "proxy bridge connection"), target)
		}
	}()
	return port, nil
}

func listenLoopback(fd, port int) error {
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		return err
	}
	if err := unix.Bind(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return err
	}
	return unix.Listen(fd, unix.SOMAXCONN)
}

// bridge copies both ways between a connection and the proxy socket until
// both directions end, passing each end of stream on as a half close.
func bridge(c *os.File, target string) {
	defer c.Close()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return
	}
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: target}); err != nil {
		unix.Close(fd)
		return
	}
	unix.SetNonblock(fd, true)
	up := os.NewFile(uintptr(fd), "proxy socket")
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { copyThenCloseWrite(up, c); done <- struct{}{} }()
	go func() { copyThenCloseWrite(c, up); done <- struct{}{} }()
	<-done
	<-done
}

// copyThenCloseWrite copies src to dst (plainly: no zero-copy attempts
// between sockets) and shuts dst's writing side.
func copyThenCloseWrite(dst, src *os.File) {
	io.Copy(struct{ io.Writer }{dst}, struct{ io.Reader }{src})
	if rc, err := dst.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) { unix.Shutdown(int(fd), unix.SHUT_WR) })
	}
}
