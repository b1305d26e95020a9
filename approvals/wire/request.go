package wire

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"github.com/sentinelhq/sentinel/policy/kind"
)

// EnvSocket names the environment variable through which the runner tells
// the coder's process tree (and so every hook command) where the broker is.
const EnvSocket = "SENTINEL_SOCKET"

// EnvRun names the environment variable holding the run id.
const EnvRun = "SENTINEL_RUN"

// Request is one thing a coder wants to do.
type Request struct {
	ID      string          `json:"id,omitempty"` // assigned by the broker
	Kind    kind.Kind       `json:"kind"`
	Command string          `json:"command,omitempty"` // shell
	Path    string          `json:"path,omitempty"`    // write / edit / read
	URL     string          `json:"url,omitempty"`     // net
	Host    string          `json:"host,omitempty"`    // net
	Port    int             `json:"port,omitempty"`    // net
	Tool    string          `json:"tool,omitempty"`    // mcp / other: the tool name
	Input   json.RawMessage `json:"input,omitempty"`   // the adapter's raw tool input, for display
	Cwd     string          `json:"cwd,omitempty"`
	Adapter string          `json:"adapter,omitempty"` // demo, claude, codex, proxy, …
	// Argv is a shell command as the agent gave it, as words (Codex's
	// ["bash","-lc",SCRIPT]), with Command its quoted line (QuoteArgv).
	// The broker, which holds the policy's shell reader, judges SCRIPT in
	// its place where that reader finds it (approvals.ShellCommand) and
	// drops Argv before anything else sees the request.
	Argv       []string `json:"argv,omitempty"`
	ToolCallID string   `json:"tool_call_id,omitempty"`
}

// Validate checks a request names a known kind and what that kind needs:
// the check the broker makes before it judges a request.
func (r Request) Validate() error {
	switch r.Kind {
	case kind.Shell:
		if r.Command == "" {
			return fmt.Errorf("a shell request needs a command")
		}
	case kind.Write, kind.Edit, kind.Read:
		if r.Path == "" {
			return fmt.Errorf("a %s request needs a path", r.Kind)
		}
	case kind.Net:
		if r.Host == "" && r.URL == "" {
			return fmt.Errorf("a net request needs a host or url")
		}
	case kind.MCP, kind.Other:
		if r.Tool == "" {
			return fmt.Errorf("a %s request needs a tool name", r.Kind)
		}
	case "":
		return fmt.Errorf("the request has no kind (want shell, write, edit, read, net, mcp or other)")
	default:
		return fmt.Errorf("unknown request kind %q (want shell, write, edit, read, net, mcp or other)", r.Kind)
	}
	return nil
}

// Summary is the one line a person reads for a request.
func (r Request) Summary() string {
	switch r.Kind {
	case kind.Shell:
		return r.Command
	case kind.Write, kind.Edit, kind.Read:
		return r.Path
	case kind.Net:
		host, port := r.HostPort()
		if port != 0 {
			return fmt.Sprintf("%s:%d", host, port)
		}
		if host != "" {
			return host
		}
		return r.URL
	}
	return r.Tool
}

// HostPort returns the host and port a net request names: Host (or the
// URL's host) and Port (or the URL's port, else its scheme's), a Host
// written as host:port split.
func (r Request) HostPort() (string, int) {
	host, port := r.Host, r.Port
	if host == "" && r.URL != "" {
		if u, err := url.Parse(r.URL); err == nil {
			host = u.Hostname()
			if p, err := strconv.Atoi(u.Port()); err == nil {
				port = p
			} else if port == 0 {
				switch u.Scheme {
				case "http":
					port = 80
				case "https":
					port = 443
				}
			}
		}
	}
	if h, p, ok := splitHostPort(host); ok {
		host = h
		if n, err := strconv.Atoi(p); err == nil && port == 0 {
			port = n
		}
	}
	return host, port
}
