package servicewire

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the protocol's version (PROTOCOL.md). A request of another
// version is answered with an error naming both.
const Version = 1

// MaxLine bounds one line in either direction.
const MaxLine = 1 << 20

// Request is the one line a client sends on a new connection.
type Request struct {
	V    int             `json:"v"`
	Op   string          `json:"op"`
	Body json.RawMessage `json:"body,omitempty"`
}

// Reply is a line the service sends back: one for a call, several for a
// stream (each with More set but the last).
type Reply struct {
	V     int             `json:"v"`
	OK    bool            `json:"ok"`
	Error string          `json:"error,omitempty"`
	More  bool            `json:"more,omitempty"` // another reply follows
	Body  json.RawMessage `json:"body,omitempty"`
}

// ErrNotRunning is what Dial returns when no service listens: callers that
// can do without the service (a run with no one to route to) go on as if
// it did not exist.
var ErrNotRunning = errors.New("the Sentinel service is not running (start it with `sentinel service` or `sentinel service install`)")

// RemoteError is an error the service answered with.
type RemoteError struct {
	Op  string
	Msg string
}

func (e *RemoteError) Error() string { return fmt.Sprintf("service: %s: %s", e.Op, e.Msg) }
