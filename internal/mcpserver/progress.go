package mcpserver

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/slowtell"
)

// Nothing of a call is silent for seconds: the checkpoint before a
// writing call, the record after it and the git-dir sweep after a command
// can each take a while on a big rw path. Once one has run a second it
// says what it does on standard error (the server's Warn) and, when the
// client sent a progress token with the call, as MCP progress
// notifications, again every two seconds until it ends (slowtell).

// teller is one call's way to say what a long step does.
type teller struct {
	ctx     context.Context
	op      string
	token   any
	session *mcp.ServerSession
	warn    func(string)
	after   time.Duration // how long a step runs before it is told

	mu sync.Mutex
	n  float64
}

type tellerKey struct{}

// withTeller gives the call of op its teller.
func (s *Server) withTeller(ctx context.Context, op string, req *mcp.CallToolRequest) context.Context {
	t := &teller{ctx: ctx, op: op, warn: s.shared.warnLine, after: slowtell.After}
	if s.shared.opts.tellAtOnce {
		t.after = 0
	}
	if req != nil && req.Params != nil {
		t.token, t.session = req.Params.GetProgressToken(), req.Session
	}
	return context.WithValue(ctx, tellerKey{}, t)
}

// tellerOf is ctx's call's teller (nil: none, nothing is told).
func tellerOf(ctx context.Context) *teller {
	t, _ := ctx.Value(tellerKey{}).(*teller)
	return t
}

// slow starts telling what (a step of the call) once it runs long; done
// ends it.
func (t *teller) slow(what string) (done func()) {
	if t == nil {
		return func() {}
	}
	return slowtell.Start(t.after, func(took time.Duration) {
		line := fmt.Sprintf("sentinel mcp: %s: %s (%s so far)", t.op, what, slowtell.Took(took))
		t.warn(line)
		if t.token == nil || t.session == nil {
			return
		}
		t.mu.Lock()
		t.n++
		n := t.n
		t.mu.Unlock()
		_ = t.session.NotifyProgress(t.ctx, &mcp.ProgressNotificationParams{ProgressToken: t.token, Message: what + " (" + slowtell.Took(took) + " so far)", Progress: n})
	})
}

// warnLine writes one line to the server's Warn (standard error).
func (sh *shared) warnLine(line string) {
	w := sh.opts.Warn
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintln(w, line)
}
