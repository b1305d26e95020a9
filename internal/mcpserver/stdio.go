package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP on r and w (stdin and stdout) until the client
// hangs up or ctx ends. A line that is not one JSON-RPC message — bad JSON,
// a batch, an object that is not a request, a line over the request cap
// (Limits.MaxRequestBytes) — is answered with a JSON-RPC error and skipped;
// the SDK's own reader would end the session on it. An over-the-cap line is
// never held whole: it is hashed as it is skipped and recorded in the audit
// as its summary.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	lw := &lockedWriter{w: w}
	max := s.cfg.Limits.MaxRequestBytes()
	fr := &lineFilter{in: bufio.NewReaderSize(r, 64<<10), out: lw, max: int(max), oversized: s.oversized}
	return s.mcp.Run(ctx, &mcp.IOTransport{Reader: fr, Writer: lw, MaxLineLength: int(max) + 1})
}

// lockedWriter makes each Write whole: the SDK writes one message per call,
// and so do the filter's error answers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// lineFilter passes on only lines that are one JSON-RPC message.
type lineFilter struct {
	in        *bufio.Reader
	out       io.Writer
	max       int
	oversized func(*ArgsSummary)
	pending   []byte
}

func (f *lineFilter) Close() error { return nil }

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.line()
		if len(line) > 0 {
			f.pending = f.check(line)
		}
		if err != nil && len(f.pending) == 0 {
			return 0, err
		}
		if err != nil {
			break
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// line reads one line, trimmed. A line over f.max is discarded and
// answered with an error (line returns nothing for it).
func (f *lineFilter) line() ([]byte, error) {
	var buf []byte
	var over *summer
	for {
		chunk, err := f.in.ReadSlice('\n')
		switch {
		case over != nil:
			over.Write(bytes.TrimSuffix(chunk, []byte("\n")))
		case len(buf)+len(chunk) > f.max:
			over = newSummer()
			over.Write(buf)
			over.Write(bytes.TrimSuffix(chunk, []byte("\n")))
			buf = nil
		default:
			if need := len(buf) + len(chunk); need > cap(buf) {
				// Grow by doubling (append grows big slices by a quarter,
				// which allocates five times the line on the way up).
				grown := make([]byte, len(buf), min(max(2*cap(buf), need), f.max))
				copy(grown, buf)
				buf = grown
			}
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over != nil {
			if f.oversized != nil {
				f.oversized(over.summary(false))
			}
			f.answer(nil, -32600, fmt.Sprintf("the request is %d bytes, over this server's %d-byte cap ("+requestCapRule+")", over.n, f.max))
			return nil, err
		}
		return bytes.TrimSpace(buf), err
	}
}

// check returns line with its newline when it is one JSON-RPC message, and
// answers it with an error otherwise.
func (f *lineFilter) check(line []byte) []byte {
	if !json.Valid(line) {
		f.answer(nil, -32700, "parse error: the line is not JSON")
		return nil
	}
	if line[0] == '[' {
		f.answer(nil, -32600, "batches are not supported: send one message per line")
		return nil
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(line, &probe)
		f.answer(probe.ID, -32600, "invalid request: "+err.Error())
		return nil
	}
	return append(line, '\n')
}

func (f *lineFilter) answer(id json.RawMessage, code int, msg string) {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9')) {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	f.out.Write(append(b, '\n'))
}
