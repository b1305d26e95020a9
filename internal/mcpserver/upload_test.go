//go:build unix

package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeDNS answers A queries for names in a map from a UDP socket on
// loopback, NXDOMAIN for the rest, and no records for other types.
func fakeDNS(t *testing.T, names map[string]netip.Addr) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			q := buf[:n]
			if len(q) < 12 {
				continue
			}
			// the question: labels, then type and class
			i, name := 12, ""
			for i < len(q) && q[i] != 0 {
				l := int(q[i])
				if i+1+l > len(q) {
					break
				}
				name += string(q[i+1:i+1+l]) + "."
				i += 1 + l
			}
			if i+5 > len(q) {
				continue
			}
			qtype := binary.BigEndian.Uint16(q[i+1:])
			question := q[12 : i+5]
			resp := append([]byte(nil), q[:2]...)
			ip, ok := names[strings.ToLower(strings.TrimSuffix(name, "."))]
			flags, an := uint16(0x8180), uint16(0)
			switch {
			case !ok:
				flags |= 3 // NXDOMAIN
			case qtype == 1:
				an = 1
			}
			resp = binary.BigEndian.AppendUint16(resp, flags)
			resp = binary.BigEndian.AppendUint16(resp, 1)
			resp = binary.BigEndian.AppendUint16(resp, an)
			resp = append(resp, 0, 0, 0, 0)
			resp = append(resp, question...)
			if an == 1 {
				resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
				a4 := ip.As4()
				resp = append(resp, a4[:]...)
			}
			pc.WriteTo(resp, from)
		}
	}()
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", addr)
	}}
}

func TestUploadFileSSRFGuard(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	base := filepath.Join(f.rw, "uploads")
	os.Mkdir(base, 0o755)
	const max = 1000
	// ok is the one server the test's fetcher may reach; other is a
	// loopback server nothing may reach.
	otherHits := 0
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits++
		fmt.Fprint(w, "INTERNAL SECRET")
	}))
	defer other.Close()
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/file":
			fmt.Fprint(w, "payload from the web")
		case "/to":
			http.Redirect(w, r, r.URL.Query().Get("u"), http.StatusFound)
		case "/big":
			w.Header().Set("Content-Length", fmt.Sprint(max+1))
			w.Write(make([]byte, max+1))
		case "/big-chunked":
			w.(http.Flusher).Flush() // no Content-Length
			w.Write(make([]byte, max+1))
		default:
			http.NotFound(w, r)
		}
	}))
	defer ok.Close()
	okAP := netip.MustParseAddrPort(strings.TrimPrefix(ok.URL, "http://"))
	otherPort := netip.MustParseAddrPort(strings.TrimPrefix(other.URL, "http://")).Port()
	resolver := fakeDNS(t, map[string]netip.Addr{
		"files.example":   okAP.Addr(),
		"evil.example":    netip.MustParseAddr("127.0.0.1"),
		"rebind.example":  netip.MustParseAddr("10.1.2.3"),
		"meta.example":    netip.MustParseAddr("169.254.169.254"),
		"private.example": netip.MustParseAddr("192.168.0.10"),
	})
	fe := &fetcher{max: max, timeout: 20 * time.Second, resolver: resolver,
		allow: func(ap netip.AddrPort) bool { return ap == okAP },
		afterGuard: func(ap netip.AddrPort) error {
			// Only loopback is ever connected to in a test: were the guard
			// broken, this refuses and the test fails on the wrong answer.
			if !ap.Addr().Unmap().IsLoopback() {
				t.Errorf("the guard let %s through to the dialer", ap)
				return fmt.Errorf("test: not connecting to %s", ap)
			}
			return nil
		}}
	cfg := mustConfig(t, f.config(`upload_base = "`+base+`"
upload_urls = true
[limits]
max_upload_bytes = `+fmt.Sprint(max)))
	cs, _ := stdioSession(t, cfg, Options{fetch: fe})

	// Allowed: base64, the test's own server, a name resolved through the
	// custom resolver to it.
	mustAllow(t, cs, "upload_file", map[string]any{"path": "a.bin", "content_base64": base64.StdEncoding.EncodeToString([]byte("\x00\x01bytes"))})
	if b, _ := os.ReadFile(filepath.Join(base, "a.bin")); string(b) != "\x00\x01bytes" {
		t.Fatalf("base64 upload: %q", b)
	}
	mustAllow(t, cs, "upload_file", map[string]any{"path": base + "/b.txt", "url": ok.URL + "/file"})
	if b, _ := os.ReadFile(filepath.Join(base, "b.txt")); string(b) != "payload from the web" {
		t.Fatalf("url upload: %q", b)
	}
	mustAllow(t, cs, "upload_file", map[string]any{"path": "c.txt", "url": fmt.Sprintf("http://files.example:%d/file", okAP.Port())})

	p := fmt.Sprint(otherPort)
	redirect := func(to string) string { return ok.URL + "/to?u=" + url.QueryEscape(to) }
	refused := []string{
		"http://127.0.0.1:" + p + "/",
		"http://localhost:" + p + "/",
		"http://2130706433:" + p + "/",             // decimal
		"http://0177.0.0.1:" + p + "/",             // octal
		"http://0x7f.0.0.1:" + p + "/",             // hex octet
		"http://0x7f000001:" + p + "/",             // hex
		"http://127.1:" + p + "/",                  // short form
		"http://[::1]:" + p + "/",                  // IPv6 loopback
		"http://[::ffff:127.0.0.1]:" + p + "/",     // IPv4-mapped
		"http://[::ffff:7f00:1]:" + p + "/",        // IPv4-mapped, hex
		"http://0.0.0.0:" + p + "/",                // unspecified
		"http://[::]:" + p + "/",                   // unspecified v6
		"http://169.254.169.254/latest/meta-data/", // cloud metadata
		"http://[fd00:ec2::254]/latest/meta-data/", // AWS IPv6 metadata
		"http://100.100.100.200/latest/meta-data/", // CGNAT metadata
		"http://10.0.0.1/",
		"http://172.16.0.1/",
		"http://192.168.1.1/",
		"http://[fe80::1]/",
		"http://224.0.0.1/",
		"http://255.255.255.255/",
		"http://[64:ff9b::7f00:1]/", // NAT64 of loopback
		"http://[2002:7f00:1::]/",   // 6to4 of loopback
		"http://evil.example:" + p + "/",
		"http://rebind.example/",
		"http://meta.example/latest/meta-data/",
		"http://private.example/",
		redirect("http://127.0.0.1:" + p + "/"),
		redirect("http://evil.example:" + p + "/"),
		redirect("http://169.254.169.254/latest/meta-data/"),
		redirect("http://[::ffff:127.0.0.1]:" + p + "/"),
		redirect("file:///etc/passwd"),
		"file:///etc/passwd",
		"gopher://127.0.0.1:" + p + "/",
		"http://user:pass@files.example:" + fmt.Sprint(okAP.Port()) + "/file", // the one server the test allows, but with credentials
	}
	for _, u := range refused {
		got := mustRefuse(t, cs, "upload_file", map[string]any{"path": "x", "url": u}, ClassURLNotAllowed)
		if strings.Contains(got, "INTERNAL SECRET") {
			t.Fatalf("%s leaked the internal server's answer", u)
		}
		if strings.Contains(u, "user:pass@") && !strings.Contains(got, "credentials") {
			t.Fatalf("%s was refused for another reason than its credentials: %s", u, got)
		}
	}
	if otherHits != 0 {
		t.Fatalf("the internal server was reached %d times", otherHits)
	}
	if _, err := os.Stat(filepath.Join(base, "x")); err == nil {
		t.Fatal("a refused upload wrote its file")
	}

	// The size cap, with and without Content-Length.
	mustRefuse(t, cs, "upload_file", map[string]any{"path": "big", "url": ok.URL + "/big"}, ClassLimit)
	mustRefuse(t, cs, "upload_file", map[string]any{"path": "big", "url": ok.URL + "/big-chunked"}, ClassLimit)
	mustRefuse(t, cs, "upload_file", map[string]any{"path": "big", "content_base64": base64.StdEncoding.EncodeToString(make([]byte, max+1))}, ClassLimit)
	if _, err := os.Stat(filepath.Join(base, "big")); err == nil {
		t.Fatal("an over-the-cap upload wrote its file")
	}
}

func TestUploadFileStaysInUploadBase(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	base := filepath.Join(f.rw, "uploads")
	os.Mkdir(base, 0o755)
	os.Symlink(f.outside, filepath.Join(base, "out"))
	cs, _ := stdioSession(t, mustConfig(t, f.config(`upload_base = "`+base+`"`)), Options{})
	b64 := base64.StdEncoding.EncodeToString([]byte("new"))
	for _, c := range []struct {
		path  string
		class Class
	}{
		{"../notes.txt", ClassPathNotAllowed},
		{f.rw + "/elsewhere.txt", ClassPathNotAllowed},
		{"out/evil.txt", ClassPathNotAllowed},
		{f.outside + "/evil.txt", ClassPathNotAllowed},
		{f.ro + "/evil.txt", ClassReadOnlyPath},
		{base, ClassPathNotAllowed},
	} {
		mustRefuse(t, cs, "upload_file", map[string]any{"path": c.path, "content_base64": b64}, c.class)
	}
	if _, err := os.Stat(filepath.Join(f.outside, "evil.txt")); err == nil {
		t.Fatal("an upload landed outside")
	}
	// url is off unless upload_urls; an existing file needs overwrite and is kept.
	mustRefuse(t, cs, "upload_file", map[string]any{"path": "u", "url": "http://127.0.0.1:1/"}, ClassOpDisabled)
	mustAllow(t, cs, "upload_file", map[string]any{"path": "n.txt", "content_base64": b64})
	mustRefuse(t, cs, "upload_file", map[string]any{"path": "n.txt", "content_base64": b64}, ClassBadInput)
	got := mustAllow(t, cs, "upload_file", map[string]any{"path": "n.txt", "content_base64": base64.StdEncoding.EncodeToString([]byte("newer")), "overwrite": true})
	if !strings.Contains(got, "backup of what was there") {
		t.Fatalf("overwrite kept no backup: %s", got)
	}
	mustRefuse(t, cs, "upload_file", map[string]any{"path": "z", "content_base64": "not base64!"}, ClassBadInput)
}

func TestUploadConfig(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for extra, want := range map[string]string{
		`upload_base = "relative"`:          "absolute",
		`upload_base = "` + f.ro + `"`:      "not under an rw path",
		`upload_base = "` + f.outside + `"`: "not under an rw path",
		`upload_urls = true`:                "needs upload_base",
		`upload_base = "` + f.rw + `/nope"`: "create it",
	} {
		p := filepath.Join(t.TempDir(), "mcp.toml")
		write(t, p, f.config(extra))
		if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", extra, err, want)
		}
	}
}
