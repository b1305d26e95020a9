//go:build unix

package mcpserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOAuthConfigIsChecked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for extra, want := range map[string]string{
		"[oauth]\n": "needs public_url",
		"[oauth]\npublic_url = \"http://mcp.example.com\"":                             "needs https beyond loopback",
		"[oauth]\npublic_url = \"https://mcp.example.com/mcp\"":                        "scheme and host only",
		"[oauth]\npublic_url = \"https://a.example\"\naccess_token_ttl = \"10s\"":      "access_token_ttl",
		"[oauth]\npublic_url = \"https://a.example\"\nrefresh_token_ttl = \"forever\"": "refresh_token_ttl",
		"[oauth]\npublic_url = \"https://a.example\"\nclient = 1":                      "unknown key",
		"[tls]\ncert = \"/etc/cert.pem\"\n":                                            "both cert and key",
		"[tls]\ncert = \"cert.pem\"\nkey = \"key.pem\"\n":                              "absolute path",
	} {
		p := filepath.Join(t.TempDir(), "mcp.toml")
		write(t, p, f.config("")+extra)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p+":") {
			t.Errorf("%q: %v (want %q with file:line)", extra, err, want)
		}
	}
	cfg := mustConfig(t, f.config("")+"[oauth]\npublic_url = \"https://mcp.example.com/\"\n")
	if !cfg.OAuthEnabled() || cfg.Resource() != "https://mcp.example.com/mcp" {
		t.Fatalf("oauth %v, resource %q", cfg.OAuthEnabled(), cfg.Resource())
	}
	// With OAuth and no TLS: loopback only, even with a static token.
	for addr, ok := range map[string]bool{"127.0.0.1:8765": true, "[::1]:1": true, "0.0.0.0:8765": false, ":8765": false} {
		if err := cfg.CheckHTTP(addr, "0123456789abcdef0123"); (err == nil) != ok {
			t.Errorf("CheckHTTP(%s) = %v", addr, err)
		}
	}
	// Without [oauth] nothing changes: the token rules.
	plain := mustConfig(t, f.config(""))
	if plain.OAuthEnabled() || plain.CheckHTTP("0.0.0.0:1", "") == nil {
		t.Fatal("a plain config lost its token rule")
	}
}

// selfSigned writes a certificate and key for 127.0.0.1.
func selfSigned(t *testing.T, dir string) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalECPrivateKey(k)
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	c, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return cert, key, pool
}

// [tls] serves HTTPS with the person's certificate, and the MCP endpoint
// still refuses a request without a token.
func TestServeHTTPSWithTheConfiguredCertificate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cert, key, pool := selfSigned(t, t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cfg := mustConfig(t, f.config("")+"[oauth]\npublic_url = \"https://"+addr+"\"\n[tls]\ncert = \""+cert+"\"\nkey = \""+key+"\"\n")
	srv, err := New(cfg, Options{Transport: "http", Warn: &terminal{codes: make(chan string, 8)}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- srv.ServeHTTP(ctx, addr, "", func(net.Addr) { close(ready) }) }()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("ServeHTTP: %v", err)
	}
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Post("https://"+addr+MCPPath, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.TLS == nil {
		t.Fatalf("no token over HTTPS: %d (tls %v)", resp.StatusCode, resp.TLS != nil)
	}
	resp, err = c.Get("https://" + addr + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("metadata over HTTPS: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// A bad key file stops the start with the file named.
	os.WriteFile(key, []byte("not a key"), 0o600)
	err = srv.ServeHTTP(context.Background(), "127.0.0.1:0", "", nil)
	if err == nil || !strings.Contains(err.Error(), key) {
		t.Fatalf("a bad key: %v", err)
	}
}
