//go:build !linux

package sudoedit

import (
	"errors"
	"net"
)

// Server answers the MCP service on a socket (Linux only).
type Server struct{}

// NewServer fails: the helper needs Linux (openat2, SO_PEERCRED).
func NewServer(*Config, func(string, []byte) error) (*Server, error) {
	return nil, errors.New("sentinel mcp sudo-helper runs on Linux only")
}

// Serve is never reached.
func (s *Server) Serve(net.Listener) error {
	return errors.New("sentinel mcp sudo-helper runs on Linux only")
}
