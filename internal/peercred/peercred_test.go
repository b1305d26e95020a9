package peercred

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The peer of a connection this process made is this process.
func TestOfNamesThePeerProcess(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer ln.Close()
	done := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		done <- c
	}()
	cc, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	sc := <-done
	if sc == nil {
		t.Fatal("accept failed")
	}
	defer sc.Close()
	cred, err := Of(sc)
	switch runtime.GOOS {
	case "linux", "darwin":
		if err != nil {
			t.Fatal(err)
		}
		if cred.UID != os.Getuid() || cred.PID != os.Getpid() {
			t.Fatalf("peer %+v, want uid %d pid %d", cred, os.Getuid(), os.Getpid())
		}
	default:
		if err != ErrUnsupported {
			t.Fatalf("Of on %s: %v, want ErrUnsupported", runtime.GOOS, err)
		}
	}
}
