//go:build unix

package mcpserver

import (
	"context"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSession starts a server for cfg and connects the SDK's client to it
// over the stdio transport (ServeStdio on a pair of pipes), as a client
// that launched `sentinel mcp` would.
func stdioSession(t *testing.T, cfg *Config, opts Options) (*mcp.ClientSession, *Server) {
	t.Helper()
	opts.Transport = "stdio"
	if opts.files == nil {
		opts.files = testLayer(t)
	}
	srv, err := New(cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return stdioConnect(t, srv), srv
}

// stdioConnect serves srv on pipes and connects the SDK's client to it.
func stdioConnect(t *testing.T, srv *Server) *mcp.ClientSession {
	t.Helper()
	return stdioConnectWith(t, srv, nil)
}

// stdioConnectWith is stdioConnect with the client's options.
func stdioConnectWith(t *testing.T, srv *Server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, copts).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		cancel()
		<-done
		srv.Close()
	})
	return cs
}
