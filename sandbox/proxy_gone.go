package sandbox

import (
	"bufio"
	"context"
	"net"
	"time"
)

// whileConnected is a context for deciding a host on client c's behalf
// that ends when the client hangs up first: a process that asked for a
// host and then exited (go get giving up, a tool killed) leaves no card
// behind for a request nobody waits for (#37: cards of processes that
// ended). While it is live a goroutine peeks at br, the client's reader:
// a client waiting for the proxy's answer sends nothing, so only its
// end (EOF, reset) stops the peek — bytes it does send stay buffered in
// br and mean it is still there. done stops the watch and leaves c and br
// as they were, ready to be read.
func whileConnected(c net.Conn, br *bufio.Reader) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		_, err := br.Peek(1)
		select {
		case <-stopped: // done unblocked the peek: not a hang-up
		default:
			if err != nil {
				cancel()
			}
		}
	}()
	return ctx, func() {
		close(stopped)
		_ = c.SetReadDeadline(time.Unix(1, 0)) // unblocks the peek
		<-watching
		_ = c.SetReadDeadline(time.Time{})
		cancel()
	}
}
