package claude

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// pageHost is a local HTTPS server standing for a documentation host, and
// the environment that makes the sandboxed Claude Code trust its
// certificate: NODE_EXTRA_CA_CERTS names a file in a directory the user
// config makes readable (not under /tmp, which is the sandbox's own).
func pageHost(t *testing.T, body string) (srv *httptest.Server, hits *atomic.Int32, env []string) {
	t.Helper()
	hits = &atomic.Int32{}
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><h1>Guide</h1><p>%s</p></body></html>", body)
	}))
	t.Cleanup(srv.Close)
	caDir, err := os.MkdirTemp("/var/tmp", "sentinel-ca-")
	if err != nil {
		t.Skipf("no directory outside /tmp for the test CA: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(caDir) })
	ca := filepath.Join(caDir, "ca.pem")
	e2etest.WriteFile(t, ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	cfg := t.TempDir()
	e2etest.WriteFile(t, filepath.Join(cfg, "sentinel", "config.toml"), fmt.Sprintf("[sandbox]\nreadable = [%q]\n", caDir))
	return srv, hits, []string{"NODE_EXTRA_CA_CERTS=" + ca, "XDG_CONFIG_HOME=" + cfg}
}
