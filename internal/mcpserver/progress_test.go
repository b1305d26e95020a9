//go:build unix

package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuf is a writer a server's goroutines may share.
type lockedBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A writing call's checkpoint that runs long (here at once: After is 0)
// is not silent: a line on standard error and, as the client sent a
// progress token, a progress notification name what it does.
func TestASlowCheckpointTellsTheClientAndStandardError(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cfg := mustConfig(t, `[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	warn := &lockedBuf{}
	srv, err := New(cfg, Options{Transport: "stdio", files: testLayer(t), Warn: warn, tellAtOnce: true})
	if err != nil {
		t.Fatal(err)
	}
	heard := make(chan string, 16)
	cs := stdioConnectWith(t, srv, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		if req.Params.ProgressToken == "tok" {
			select {
			case heard <- req.Params.Message:
			default:
			}
		}
	}})
	params := &mcp.CallToolParams{Name: "edit", Arguments: map[string]any{"path": f.rw + "/notes.txt", "content": "changed\n"}}
	params.SetProgressToken("tok")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("edit: %v %+v", err, res)
	}
	select {
	case msg := <-heard:
		if !strings.Contains(msg, "checkpoint") && !strings.Contains(msg, "recording") {
			t.Errorf("the progress notification says %q", msg)
		}
	case <-time.After(30 * time.Second): // a hang bound only
		t.Fatal("no progress notification for the call's checkpoint")
	}
	if w := warn.String(); !strings.Contains(w, "sentinel mcp: edit: taking a checkpoint of the rw paths before the call") {
		t.Errorf("standard error does not say what the call does:\n%s", w)
	}
}
