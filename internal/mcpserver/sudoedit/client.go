package sudoedit

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"time"
)

// Request is one request on the socket.
type Request struct {
	Op   string `json:"op"` // "read" or "write"
	Path string `json:"path"`
	// Content is the new content (write).
	Content []byte `json:"content,omitempty"`
	// OldSHA256 (write), when set, must be the file's current content's
	// hash: a replace never lands over a change made since the read.
	OldSHA256 string `json:"old_sha256,omitempty"`
}

// Response is the helper's answer.
type Response struct {
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
	Content []byte `json:"content,omitempty"` // read
	SHA256  string `json:"sha256,omitempty"`  // of the content read or written
	Backup  string `json:"backup,omitempty"`  // write
	Mode    uint32 `json:"mode,omitempty"`
}

// Client asks the helper at Socket.
type Client struct {
	Socket  string
	Timeout time.Duration
}

// Do sends req and returns the helper's answer; a refusal is an error.
func (c Client) Do(ctx context.Context, req Request) (*Response, error) {
	t := c.Timeout
	if t <= 0 {
		t = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.Socket)
	if err != nil {
		return nil, fmt.Errorf("the sudo helper at %s: %v (is sentinel-mcp-sudo.socket running? see sentinel mcp sudo-helper --units)", c.Socket, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return nil, fmt.Errorf("the sudo helper: %v", err)
	}
	var resp Response
	if err := json.NewDecoder(io.LimitReader(conn, maxFrame)).Decode(&resp); err != nil {
		return nil, fmt.Errorf("the sudo helper gave no answer: %v", err)
	}
	if !resp.OK {
		return nil, &Refused{Reason: resp.Error}
	}
	return &resp, nil
}

// Refused is the helper's no.
type Refused struct{ Reason string }

func (r *Refused) Error() string { return "the sudo helper refused: " + r.Reason }

// maxFrame caps one JSON message (content is base64 in it).
var maxFrame = frameFor(defaultMax)

// frameFor is the largest request or answer carrying max bytes of
// content: its base64 and room for the rest.
func frameFor(max int64) int64 { return (max+2)/3*4 + 4096 }
