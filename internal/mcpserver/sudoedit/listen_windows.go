package sudoedit

import (
	"errors"
	"net"
)

// Listen fails: the helper runs on Linux only.
func Listen(string, int) (net.Listener, error) {
	return nil, errors.New("sentinel mcp sudo-helper runs on Linux only")
}
