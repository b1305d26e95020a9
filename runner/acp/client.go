package acp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// client is Sentinel's side of the connection: it answers the agent's
// permission, file and terminal requests.
type client struct {
	ws    string   // the workspace, absolute
	root  *os.Root // the workspace, for file requests that must not leave it
	ask   func(context.Context, approvals.Request) approvals.Decision
	emit  func(Line)
	lines *lineWriter

	mu       sync.Mutex
	granted  map[string]int // paths whose write the broker allowed through a permission request
	denied   []string       // denials the agent has not been told the reasons for
	turnDone chan struct{}  // closed when Sentinel cancels the running turn
}

var _ sdk.Client = (*client)(nil)

func (c *client) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.lines.flush()
	turn := c.turn()
	// A cancel of ours ends the wait: the card closes, the answer is cancelled.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-turn:
			stop()
		case <-ctx.Done():
		}
	}()
	reqs := requestsFor(p.ToolCall, c.ws)
	for _, r := range reqs {
		d := c.ask(ctx, r)
		if !d.Allowed() {
			if isClosed(turn) {
				return cancelled(), nil
			}
			c.noteDenial(r, d)
			return choose(p.Options, false), nil
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if isClosed(turn) {
		return cancelled(), nil
	}
	for _, r := range reqs {
		if r.Kind == policy.KindWrite || r.Kind == policy.KindEdit {
			c.granted[filepath.Clean(r.Path)]++
		}
	}
	c.lines.noteCall(p.ToolCall)
	return choose(p.Options, true), nil
}

// cancelled answers a permission request whose turn Sentinel cancelled
// while it was pending: ACP requires that answer of a client that sent
// session/cancel, whatever the broker decided.
func cancelled() sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
}

// turn is closed when Sentinel cancels the running turn.
func (c *client) turn() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.turnDone == nil {
		c.turnDone = make(chan struct{})
	}
	return c.turnDone
}

// cancelTurn notes that Sentinel is cancelling the running turn: requests
// still waiting for a decision are answered cancelled.
func (c *client) cancelTurn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.turnDone != nil {
		close(c.turnDone)
	}
	c.turnDone = make(chan struct{})
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// noteDenial keeps why a request was denied, for the follow-up prompt.
func (c *client) noteDenial(r approvals.Request, d approvals.Decision) {
	why := d.Message
	if why == "" {
		why = d.Reason
	}
	what := r.Command
	for _, s := range []string{r.Path, r.URL, r.Tool} {
		if what == "" {
			what = s
		}
	}
	c.mu.Lock()
	c.denied = append(c.denied, fmt.Sprintf("%s `%s`: %s", r.Kind, what, why))
	c.mu.Unlock()
}

// takeDenials returns and forgets the untold denials.
func (c *client) takeDenials() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.denied
	c.denied = nil
	return d
}

func (c *client) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.lines.update(n.Update)
	return nil
}

// inside is path relative to the workspace, or an error when it is not an
// absolute path in it. os.Root then keeps symlinks from leading out.
func (c *client) inside(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q is not an absolute path (ACP file requests must use absolute paths)", path)
	}
	rel, err := filepath.Rel(c.ws, filepath.Clean(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the workspace: Sentinel serves files from the workspace only", path)
	}
	return rel, nil
}

func (c *client) ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	rel, err := c.inside(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32602, Message: err.Error()}
	}
	if d := c.ask(ctx, approvals.Request{Kind: policy.KindRead, Path: p.Path, Adapter: "acp", Cwd: c.ws}); !d.Allowed() {
		return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32000, Message: "Sentinel denied reading " + p.Path + ": " + d.Reason}
	}
	b, err := c.root.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		// The spec's resource_not_found; agents treat it as "no such file".
		return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"path": p.Path}}
	}
	if err != nil {
		return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32603, Message: "read " + p.Path + ": " + err.Error()}
	}
	return sdk.ReadTextFileResponse{Content: lineRange(string(b), p.Line, p.Limit)}, nil
}

// lineRange is the part of s from 1-based line for limit lines (nil: all).
func lineRange(s string, line, limit *int) string {
	if line == nil && limit == nil {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	start := 0
	if line != nil && *line > 1 {
		start = min(*line-1, len(lines))
	}
	end := len(lines)
	if limit != nil && *limit >= 0 {
		end = min(start+*limit, end)
	}
	return strings.Join(lines[start:end], "")
}

func (c *client) WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	rel, err := c.inside(p.Path)
	if err != nil {
		return sdk.WriteTextFileResponse{}, &sdk.RequestError{Code: -32602, Message: err.Error()}
	}
	clean := filepath.Clean(p.Path)
	c.mu.Lock()
	granted := c.granted[clean] > 0
	if granted {
		c.granted[clean]--
	}
	c.mu.Unlock()
	if !granted {
		// A write with no permission asked first is a request of its own.
		r := approvals.Request{Kind: policy.KindWrite, Path: p.Path, Adapter: "acp", Cwd: c.ws,
			Input: rawJSON(map[string]any{"path": p.Path, "content": p.Content})}
		if _, err := c.root.Stat(rel); err == nil {
			r.Kind = policy.KindEdit
		}
		if d := c.ask(ctx, r); !d.Allowed() {
			c.noteDenial(r, d)
			return sdk.WriteTextFileResponse{}, &sdk.RequestError{Code: -32000, Message: "Sentinel denied writing " + p.Path + ": " + d.Reason}
		}
	}
	mode := fs.FileMode(0o644)
	if st, err := c.root.Stat(rel); err == nil {
		mode = st.Mode().Perm()
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := c.root.MkdirAll(dir, 0o755); err != nil {
			return sdk.WriteTextFileResponse{}, &sdk.RequestError{Code: -32603, Message: "write " + p.Path + ": " + err.Error()}
		}
	}
	if err := c.root.WriteFile(rel, []byte(p.Content), mode); err != nil {
		return sdk.WriteTextFileResponse{}, &sdk.RequestError{Code: -32603, Message: "write " + p.Path + ": " + err.Error()}
	}
	c.emit(Line{Lane: journal.Tool, Kind: coderstream.Write, Text: fmt.Sprintf("wrote %s (%d bytes)", rel, len(p.Content)),
		Data: map[string]any{"path": p.Path, "bytes": len(p.Content)}})
	return sdk.WriteTextFileResponse{}, nil
}

// Terminals are refused (the capability is not offered): commands run in
// the agent's own sandboxed process.
func noTerminal() error {
	return &sdk.RequestError{Code: -32601, Message: "Method not found", Data: "Sentinel does not offer terminals; run commands with your own shell tool"}
}

func (c *client) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, noTerminal()
}
func (c *client) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, noTerminal()
}
func (c *client) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, noTerminal()
}
func (c *client) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, noTerminal()
}
func (c *client) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, noTerminal()
}
