//go:build unix

package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUploadBase64UpToMaxUploadBytes: content_base64 takes a file as big as
// max_upload_bytes, over stdio and over HTTP, though it is bigger than the
// request cap max_read_bytes alone would give; one byte more is refused as
// over max_upload_bytes. Without upload_file the cap is not raised.
func TestUploadBase64UpToMaxUploadBytes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	base := filepath.Join(f.rw, "uploads")
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	// Small enough to be quick under -race (3 MiB took 12 s), big enough
	// that the cap reading alone gives (3 × 64 KiB + 256 KiB) refuses it.
	const most = 512 << 10
	cfg := mustConfig(t, f.config("upload_base = \""+base+"\"\n[limits]\nmax_read_bytes = 65536\nmax_upload_bytes = 524288\n"))
	if got := cfg.Limits.MaxRequestBytes(); got < int64(base64.StdEncoding.EncodedLen(most)) {
		t.Fatalf("the request cap %d cannot carry a %d-byte upload in base64", got, most)
	}
	if readCap := int64(3*65536 + 256<<10); readCap >= int64(base64.StdEncoding.EncodedLen(most)) {
		t.Fatalf("the cap reading alone gives (%d) would carry the upload too: the test proves nothing", readCap)
	}
	file := bytes.Repeat([]byte("0123456789abcdef"), most/16)
	b64 := base64.StdEncoding.EncodeToString(file)
	over := base64.StdEncoding.EncodeToString(append(file, 'x'))

	cs, srv := stdioSession(t, cfg, Options{})
	upload := func(s *mcp.ClientSession, name, content string) (string, bool) {
		t.Helper()
		res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "upload_file", Arguments: map[string]any{"path": name, "content_base64": content}})
		if err != nil {
			return "transport: " + err.Error(), true
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	if txt, isErr := upload(cs, "stdio.bin", b64); isErr {
		t.Fatalf("stdio: a %d-byte upload: %s", most, txt)
	}
	if txt, isErr := upload(cs, "stdio-over.bin", over); !isErr || !strings.Contains(txt, "max_upload_bytes") {
		t.Fatalf("stdio: one byte over max_upload_bytes: %s", txt)
	}

	const token = "0123456789abcdef0123456789abcdef"
	hs := httptest.NewServer(srv.Handler(token))
	t.Cleanup(hs.Close)
	tr := &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	hc, err := mcp.NewClient(&mcp.Implementation{Name: "http"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hc.Close() })
	if txt, isErr := upload(hc, "http.bin", b64); isErr {
		t.Fatalf("http: a %d-byte upload: %s", most, txt)
	}
	for _, name := range []string{"stdio.bin", "http.bin"} {
		got, err := os.ReadFile(filepath.Join(base, name))
		if err != nil || !bytes.Equal(got, file) {
			t.Fatalf("%s: %d bytes, %v", name, len(got), err)
		}
	}

	// upload_file off: the cap stays what reading needs.
	off := mustConfig(t, f.config("upload_base = \""+base+"\"\ndisabled_ops = [\"upload_file\"]\n[limits]\nmax_read_bytes = 524288\nmax_upload_bytes = 3145728\n"))
	if got, want := off.Limits.MaxRequestBytes(), int64(3*524288+256<<10); got != want {
		t.Fatalf("with upload_file off the request cap is %d, want %d", got, want)
	}
}
