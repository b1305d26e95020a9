package mcpgate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// MaxMessage bounds one JSON-RPC line in either direction.
const MaxMessage = 64 << 20

// DefaultAskTimeout bounds one broker question (like a hook's).
const DefaultAskTimeout = 9*time.Minute + 30*time.Second

// Gate is one gated MCP server.
type Gate struct {
	// Server is the server's name as the agent's config names it; tool
	// calls are asked about as mcp__<Server>__<tool>.
	Server string
	// Adapter names the agent in broker requests (e.g. "opencode").
	Adapter string
	// Cwd is the working directory shown with each request.
	Cwd string
	// Ask is the broker; it must deny on any failure.
	Ask func(context.Context, approvals.Request) approvals.Decision
	// AskTimeout bounds one question (0: DefaultAskTimeout).
	AskTimeout time.Duration
	// Log receives one line per thing the gate refused to forward; may be nil.
	Log io.Writer

	toAgent, toServer lockedWriter
	pending           sync.WaitGroup
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// line writes b and a newline as one write.
func (l *lockedWriter) line(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(append(bytes.TrimRight(b, "\r\n"), '\n'))
	return err
}

// Run carries messages until the server's output ends. When the agent
// closes its side (agentIn ends), the questions in flight are answered
// and then the server's stdin is closed. agentIn is what the agent writes,
// agentOut what it reads; serverIn and serverOut are the server's stdin and
// stdout.
func (g *Gate) Run(ctx context.Context, agentIn io.Reader, agentOut io.Writer, serverIn io.WriteCloser, serverOut io.Reader) error {
	if g.Ask == nil {
		return errors.New("mcpgate: no broker to ask")
	}
	g.toAgent.w, g.toServer.w = agentOut, serverIn
	fwd := make(chan error, 1)
	go func() {
		err := g.forward(ctx, agentIn)
		g.pending.Wait()
		serverIn.Close()
		fwd <- err
	}()
	err := g.copyBack(serverOut)
	select {
	case ferr := <-fwd:
		if ferr != nil {
			err = ferr
		}
	default: // the server ended first; what the agent still sends goes nowhere
	}
	return err
}

// copyBack passes the server's lines to the agent untouched.
func (g *Gate) copyBack(serverOut io.Reader) error {
	sc := bufio.NewScanner(serverOut)
	sc.Buffer(make([]byte, 64<<10), MaxMessage)
	for sc.Scan() {
		if err := g.toAgent.line(sc.Bytes()); err != nil {
			return err
		}
	}
	return sc.Err()
}

// forward reads the agent's lines and judges each.
func (g *Gate) forward(ctx context.Context, agentIn io.Reader) error {
	sc := bufio.NewScanner(agentIn)
	sc.Buffer(make([]byte, 64<<10), MaxMessage)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := g.handle(ctx, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("mcpgate: read from the agent: %w", err)
	}
	return nil
}

// handle judges one line from the agent: a message or a batch.
func (g *Gate) handle(ctx context.Context, line []byte) error {
	if line[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(line, &batch); err != nil || len(batch) == 0 {
			g.refused("a batch that does not parse", line)
			return g.toAgent.line(errorReply(nil, -32700, "Sentinel's MCP gate could not read this batch; it was not forwarded"))
		}
		var fwd []json.RawMessage
		for _, m := range batch {
			out, call := g.judge(m)
			switch {
			case call != nil:
				g.decideLater(ctx, call)
			case out != nil:
				fwd = append(fwd, out)
			}
		}
		if len(fwd) == 0 {
			return nil
		}
		b, err := json.Marshal(fwd)
		if err != nil {
			return err
		}
		return g.toServer.line(b)
	}
	out, call := g.judge(line)
	switch {
	case call != nil:
		g.decideLater(ctx, call)
	case out != nil:
		return g.toServer.line(out)
	}
	return nil
}

// toolCall is a tools/call waiting for the broker.
type toolCall struct {
	id    json.RawMessage
	tool  string
	input json.RawMessage
	msg   []byte // what is forwarded when allowed
}

// judge reads one message: what to forward now (nil: nothing), or the
// tools/call to ask about first. What it cannot read it answers itself.
func (g *Gate) judge(raw []byte) ([]byte, *toolCall) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		g.refused("a message that does not parse", raw)
		_ = g.toAgent.line(errorReply(nil, -32700, "Sentinel's MCP gate could not read this message; it was not forwarded"))
		return nil, nil
	}
	id := m["id"]
	hasID := len(id) > 0 && string(id) != "null"
	methodRaw, hasMethod := m["method"]
	method := ""
	if hasMethod && json.Unmarshal(methodRaw, &method) != nil {
		g.refused("a method that is not a string", raw)
		if hasID {
			_ = g.toAgent.line(errorReply(id, -32600, "Sentinel's MCP gate could not read this request's method; it was not forwarded"))
		}
		return nil, nil
	}
	canon, err := json.Marshal(m)
	if err != nil {
		return nil, nil
	}
	if !isToolCall(method) {
		return canon, nil
	}
	if !hasID {
		g.refused("a tools/call without an id", raw)
		return nil, nil
	}
	call, bad := readCall(m)
	if bad != "" {
		g.refused(bad, raw)
		_ = g.toAgent.line(deniedReply(id, "Sentinel's MCP gate did not forward this call: "+bad))
		return nil, nil
	}
	call.id = id
	return nil, call
}

// isToolCall says whether a method is tools/call, read loosely: a server
// that trims or folds case must not run a call the gate let by.
func isToolCall(method string) bool {
	return strings.EqualFold(strings.TrimSpace(method), "tools/call")
}

// readCall reads a tools/call's tool name and arguments and rebuilds the
// message from exactly what was read; bad says why it cannot be.
func readCall(m map[string]json.RawMessage) (*toolCall, string) {
	var params map[string]json.RawMessage
	if err := json.Unmarshal(m["params"], &params); err != nil || params == nil {
		return nil, "its params are not an object"
	}
	var name string
	if err := json.Unmarshal(params["name"], &name); err != nil || strings.TrimSpace(name) == "" {
		return nil, "it names no tool"
	}
	input := json.RawMessage("{}")
	if a, ok := params["arguments"]; ok && string(a) != "null" {
		d := json.NewDecoder(bytes.NewReader(a))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return nil, "its arguments do not parse"
		}
		if _, ok := v.(map[string]any); !ok {
			return nil, "its arguments are not an object"
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, "its arguments do not parse"
		}
		input = b
		params["arguments"] = b
	}
	p, err := json.Marshal(params)
	if err != nil {
		return nil, "its params do not parse"
	}
	m["params"] = p
	msg, err := json.Marshal(m)
	if err != nil {
		return nil, "it does not parse"
	}
	return &toolCall{tool: name, input: input, msg: msg}, ""
}

// decideLater asks the broker about call without holding up other messages.
func (g *Gate) decideLater(ctx context.Context, call *toolCall) {
	g.pending.Add(1)
	go func() {
		defer g.pending.Done()
		g.decide(ctx, call)
	}()
}

func (g *Gate) decide(ctx context.Context, call *toolCall) {
	timeout := g.AskTimeout
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d := g.Ask(ctx, approvals.Request{Kind: policy.KindMCP, Tool: ToolName(g.Server, call.tool), Input: call.input,
		Cwd: g.Cwd, Adapter: g.Adapter})
	if d.Allowed() {
		_ = g.toServer.line(call.msg)
		return
	}
	why := d.Message
	if strings.TrimSpace(why) == "" {
		why = "Sentinel denied this: " + d.Reason
	}
	_ = g.toAgent.line(deniedReply(call.id, why))
}

// ToolName is how the policy names a server's tool: mcp__<server>__<tool>.
func ToolName(server, tool string) string { return "mcp__" + server + "__" + tool }

func (g *Gate) refused(what string, raw []byte) {
	if g.Log == nil {
		return
	}
	if len(raw) > 200 {
		raw = raw[:200]
	}
	fmt.Fprintf(g.Log, "sentinel mcp-gate %s: not forwarded: %s: %q\n", g.Server, what, raw)
}

// deniedReply answers a tools/call with a tool result that is an error, so
// the model reads why.
func deniedReply(id json.RawMessage, why string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": why}}, "isError": true}})
	return b
}

func errorReply(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return b
}
