package inside

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"testing"
)

// The bridge passes bytes both ways unchanged and each side's end of
// stream on as a half close: the proxy answers a request it read to the
// end, and the client reads the answer to the end.
func TestForwardBridgesBothWaysWithHalfCloses(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				b, err := io.ReadAll(c) // until the client's half close
				fmt.Fprintf(c, "read %d bytes, sum %d, err %v\n", len(b), sum(b), err)
			}()
		}
	}()
	port, err := forward(0, sock)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		req := bytes.Repeat([]byte{byte(i), 7, 42}, 400_000)
		if _, err := c.Write(req); err != nil {
			t.Fatal(err)
		}
		c.(*net.TCPConn).CloseWrite()
		got, err := io.ReadAll(c)
		c.Close()
		if want := fmt.Sprintf("read %d bytes, sum %d, err <nil>\n", len(req), sum(req)); err != nil || string(got) != want {
			t.Fatalf("connection %d: got %q (%v), want %q", i, got, err, want)
		}
	}
}

func sum(b []byte) int {
	s := 0
	for _, x := range b {
		s += int(x)
	}
	return s
}
