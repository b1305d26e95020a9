package web

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// selfSigned writes a certificate for 127.0.0.1 and its key; it returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "sentinel test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return certFile, keyFile, pool
}

// With the person's certificate the page is served over HTTPS only: its
// URL says https, a client that trusts the certificate reaches the pairing
// page, and plain HTTP on the same port gets no page.
func TestThePageServesHTTPSWithThePersonsCertificate(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	certFile, keyFile, pool := selfSigned(t)
	devs, err := OpenDevices()
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Queue: queue.New(nil), Devices: devs, TLSCert: certFile, TLSKey: keyFile})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	ready := make(chan string, 1)
	go func() { done <- s.Serve(ctx, "127.0.0.1:0", func(u string) { ready <- u }) }()
	t.Cleanup(func() { cancel(); <-done })
	var url string
	select {
	case url = <-ready:
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	if !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("the page's URL is %q, want https", url)
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get(url + "/pair?code=nope")
	if err != nil {
		t.Fatalf("over HTTPS: %v", err)
	}
	resp.Body.Close()
	if resp.TLS == nil {
		t.Fatal("the answer did not come over TLS")
	}
	plain := &http.Client{Timeout: time.Minute}
	if resp, err := plain.Get("http://" + strings.TrimPrefix(url, "https://") + "/pair?code=nope"); err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Fatalf("plain HTTP on the HTTPS port answered %s", resp.Status)
		}
	}
}

// A certificate that does not load stops the page with a line naming the
// setting, before it listens.
func TestABadCertificateStopsThePage(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	devs, err := OpenDevices()
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "none.pem")
	s, err := New(Options{Queue: queue.New(nil), Devices: devs, TLSCert: missing, TLSKey: missing})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Serve(context.Background(), "127.0.0.1:0", func(string) { t.Error("the page listened with a certificate that does not load") })
	if err == nil || !strings.Contains(err.Error(), "web_cert") {
		t.Fatalf("Serve with a missing certificate: %v", err)
	}
}
