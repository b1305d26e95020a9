package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/policy/kind"
)

// fakeBroker listens on a fresh socket and answers every line it reads
// with answer(line); an answer of "" closes the connection instead.
func fakeBroker(t *testing.T, answer func(m Message) string) string {
	t.Helper()
	ln, sock := listen(t)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				sc := bufio.NewScanner(c)
				sc.Buffer(make([]byte, 64<<10), MaxMessage)
				for sc.Scan() {
					var m Message
					if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
						return
					}
					a := answer(m)
					if a == "" {
						return
					}
					c.Write([]byte(a))
				}
			}()
		}
	}()
	return sock
}

// listen is a unix socket in a fresh short dir (socket paths are
// limited), both gone when the test ends.
func listen(t *testing.T) (net.Listener, string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "wire")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "b.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln, sock
}

var shell = Request{Kind: kind.Shell, Command: "make"}

func TestAskOnceReadsTheDecision(t *testing.T) {
	var got Message
	sock := fakeBroker(t, func(m Message) string {
		got = m
		// a line that is not the answer, then one for another id, then the answer
		return "garbage\n" + `{"v":1,"type":"decision","id":"other","decision":{"decision":"deny","by":"x","reason":"not yours"}}` + "\n" +
			`{"v":1,"type":"decision","id":"` + m.ID + `","decision":{"decision":"allow","by":"person","reason":"ok","request_id":"r-1"}}` + "\n"
	})
	d, err := AskOnce(context.Background(), sock, shell)
	if err != nil || !d.Allowed() || d.By != "person" || d.RequestID != "r-1" {
		t.Fatalf("AskOnce = %+v, %v; want the person's allow", d, err)
	}
	if got.V != ProtocolVersion || got.Type != TypeRequest || got.Request == nil || got.Request.Command != "make" {
		t.Errorf("the broker read %+v", got)
	}
}

// within is a context ending after d.
func within(d time.Duration) func() (context.Context, context.CancelFunc) {
	return func() (context.Context, context.CancelFunc) { return context.WithTimeout(context.Background(), d) }
}

// cancelledAfter is a context cancelled (not timed out) after d.
func cancelledAfter(d time.Duration) func() (context.Context, context.CancelFunc) {
	return func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(d, cancel)
		return ctx, cancel
	}
}

// answering is a broker that answers every request with answer.
func answering(answer func(m Message) string) func(t *testing.T) string {
	return func(t *testing.T) string { return fakeBroker(t, answer) }
}

// Every way of not getting one clear decision is a deny saying why.
func TestAskOnceFailsClosed(t *testing.T) {
	dir := t.TempDir()
	never := func(Message) string { select {} }
	for name, tc := range map[string]struct {
		sock   func(t *testing.T) string
		ctx    func() (context.Context, context.CancelFunc)
		by, in string
	}{
		"no socket":           {sock: func(*testing.T) string { return "" }, by: "error", in: EnvSocket},
		"nothing listens":     {sock: func(*testing.T) string { return filepath.Join(dir, "none.sock") }, by: "error", in: "cannot reach the Sentinel broker"},
		"the broker hangs up": {sock: answering(func(Message) string { return "" }), by: "error", in: "the broker went away"},
		"garbage only":        {sock: answering(func(Message) string { return "garbage\n" }), ctx: within(300 * time.Millisecond), by: "timeout", in: "no decision"},
		"an ack, not a decision": {sock: answering(func(m Message) string { return `{"v":1,"type":"ack","id":"` + m.ID + `"}` + "\n" }),
			by: "error", in: "without a decision"},
		"an unknown outcome": {sock: answering(func(m Message) string {
			return `{"v":1,"type":"decision","id":"` + m.ID + `","decision":{"decision":"maybe","by":"x"}}` + "\n"
		}), by: "error", in: "unknown decision"},
		"no answer before the deadline": {sock: answering(never), ctx: within(200 * time.Millisecond), by: "timeout", in: "no decision"},
		"cancelled while waiting":       {sock: answering(never), ctx: cancelledAfter(100 * time.Millisecond), by: "error", in: "canceled"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tc.ctx != nil {
				ctx, cancel = tc.ctx()
			}
			defer cancel()
			d, err := AskOnce(ctx, tc.sock(t), shell)
			if err == nil || d.Allowed() || d.By != tc.by || !strings.Contains(d.Reason, tc.in) || d.Message == "" {
				t.Fatalf("AskOnce = %+v, %v; want a deny by %s saying %q", d, err, tc.by, tc.in)
			}
		})
	}
}

// AskWithin's own bound (the socket's timeout, no timer) is a deny by
// timeout like a context's deadline, and so is a report's.
func TestAskWithinTimesOut(t *testing.T) {
	sock := fakeBroker(t, func(Message) string { select {} })
	d, err := AskWithin(context.Background(), sock, shell, 200*time.Millisecond)
	if err == nil || d.Allowed() || d.By != "timeout" {
		t.Fatalf("AskWithin = %+v, %v; want a deny by timeout", d, err)
	}
	if _, err := ReportOnce(context.Background(), sock, Report{Lane: "tool"}, 200*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ReportOnce = %v; want the deadline", err)
	}
}

func TestReportOnce(t *testing.T) {
	sock := fakeBroker(t, func(m Message) string {
		if m.Report == nil || m.Report.Lane != "tool" {
			return `{"v":1,"type":"error","id":"` + m.ID + `","error":"report lane \"x\" is not allowed"}` + "\n"
		}
		return `{"v":1,"type":"ack","id":"` + m.ID + `","note":"refused a.example:443"}` + "\n"
	})
	note, err := ReportOnce(context.Background(), sock, Report{Lane: "tool", Kind: "tool-result", Text: "Bash: make → exit 0"}, 0)
	if err != nil || note != "refused a.example:443" {
		t.Fatalf("ReportOnce = %q, %v", note, err)
	}
	if _, err := ReportOnce(context.Background(), sock, Report{Lane: "x", Kind: "y"}, 0); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Fatalf("a refused report: %v", err)
	}
	if _, err := ReportOnce(context.Background(), "", Report{Lane: "tool"}, 0); err == nil {
		t.Fatal("a report without a socket went nowhere without an error")
	}
}

// A request as large as a Write tool's content may make reaches the broker
// whole.
func TestAskOnceSendsALargeRequest(t *testing.T) {
	got := make(chan int, 1)
	sock := fakeBroker(t, func(m Message) string {
		got <- len(m.Request.Input)
		return `{"v":1,"type":"decision","id":"` + m.ID + `","decision":{"decision":"deny","by":"x","reason":"r"}}` + "\n"
	})
	big, _ := json.Marshal(strings.Repeat("x", 4<<20))
	req := Request{Kind: kind.Write, Path: "/w/a", Input: big}
	if d, err := AskOnce(context.Background(), sock, req); err != nil || d.Allowed() || d.By != "x" {
		t.Fatalf("AskOnce = %+v, %v", d, err)
	}
	if n := <-got; n != len(big) {
		t.Fatalf("the broker read %d bytes of input, want %d", n, len(big))
	}
}

// An answer that trickles in a byte at a time, each byte before a single
// read's timeout would end it, still cannot stretch the exchange past its
// deadline: the allow it would spell out in the end is a deny by timeout.
func TestAskWithinBoundsATricklingAnswer(t *testing.T) {
	ln, sock := listen(t)
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		line, _ := bufio.NewReader(c).ReadBytes('\n')
		var m Message
		json.Unmarshal(line, &m)
		answer := `{"v":1,"type":"decision","id":"` + m.ID + `","decision":{"decision":"allow","by":"person","reason":"ok"}}` + "\n"
		for i := range len(answer) {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte{answer[i]}); err != nil {
				return
			}
		}
	}()
	d, err := AskWithin(context.Background(), sock, shell, 300*time.Millisecond)
	if err == nil || d.Allowed() || d.By != "timeout" {
		t.Fatalf("AskWithin = %+v, %v; want a deny by timeout", d, err)
	}
}
