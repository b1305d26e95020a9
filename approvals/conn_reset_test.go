//go:build unix

package approvals

import (
	"encoding/json"
	"errors"
	"net"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

// A coder that goes away with the broker's answer unread (a stopped run)
// resets the connection. That is no request: the journal gets no
// "malformed message" denial, which sentinel runs and DECISIONS.md would
// count as a second request decided by nobody (#37 point 10).
func TestAClientGoneWithAnAnswerUnreadIsNoRequest(t *testing.T) {
	r := startBroker(t, BrokerConfig{Decider: allowAll("person")})
	c, err := net.Dial("unix", r.socket)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(message{V: ProtocolVersion, Type: msgRequest, ID: "1",
		Request: &Request{Kind: policy.KindShell, Command: unknownShell + " x"}})
	if _, err := c.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	// wait, without reading it, until the answer is there
	c.SetReadDeadline(time.Now().Add(2 * time.Minute)) // a bound on a hang
	raw, err := c.(*net.UnixConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var perr error
	if err := raw.Read(func(fd uintptr) bool {
		buf := make([]byte, 1)
		_, _, perr = syscall.Recvfrom(int(fd), buf, syscall.MSG_PEEK)
		return !errors.Is(perr, syscall.EAGAIN)
	}); err != nil || perr != nil {
		t.Fatalf("peek: %v %v", err, perr)
	}
	c.Close() // the answer unread: the broker's next read is reset

	deadline := time.Now().Add(2 * time.Minute) // a bound on a hang
	for {
		r.broker.mu.Lock()
		open := len(r.broker.conns)
		r.broker.mu.Unlock()
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the broker never ended the connection")
		}
		runtime.Gosched()
	}
	for _, ev := range r.events(t) {
		if strings.Contains(ev.Text, "malformed message") {
			t.Fatalf("a reset connection was journaled as a request: %s", ev.Text)
		}
	}
}
