package tmux

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The service serves its page where [service] web says; `service pair`
// prints a QR code and a one-time link; the device that opens it is
// listed by `service devices`, and revoking it shuts it out at once.
func TestServicePairAndDevices(t *testing.T) {
	t.Parallel()
	s := startUserService(t, "[service]\nweb = \"127.0.0.1:0\"\n")
	var state string
	for _, e := range s.env {
		if v, ok := strings.CutPrefix(e, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	urlFile := filepath.Join(state, "sentinel", "web", "url")
	s.waitFor(t, "the page's address", func() bool { _, err := os.Stat(urlFile); return err == nil })

	r := e2etest.Sentinel(t, "", s.env, "service", "pair")
	if r.Code != 0 || !strings.Contains(r.Stdout, "▀") {
		t.Fatalf("service pair: exit %d, no QR code:\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	m := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/pair\?code=([A-Z2-7]+)`).FindStringSubmatch(r.Stdout)
	if m == nil {
		t.Fatalf("service pair printed no link:\n%s", r.Stdout)
	}
	base, code := m[1], m[2]
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest(http.MethodPost, base+"/pair", strings.NewReader(url.Values{"code": {code}, "name": {"phone"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var token string
	for _, c := range resp.Cookies() {
		token = c.Value
	}
	if resp.StatusCode != http.StatusSeeOther || token == "" {
		t.Fatalf("pairing: %s", resp.Status)
	}
	page := func() int {
		req, _ := http.NewRequest(http.MethodGet, base+"/", nil)
		req.AddCookie(&http.Cookie{Name: "sentinel_device", Value: token})
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := page(); c != http.StatusOK {
		t.Fatalf("the paired device's page: %d", c)
	}
	if r := e2etest.Sentinel(t, "", s.env, "service", "devices"); r.Code != 0 || !strings.Contains(r.Stdout, "phone") {
		t.Fatalf("service devices: %d %s%s", r.Code, r.Stdout, r.Stderr)
	}
	if r := e2etest.Sentinel(t, "", s.env, "service", "devices", "revoke", "tablet"); r.Code == 0 || !strings.Contains(r.Stderr, "no device is named") {
		t.Fatalf("revoking an unknown device: %d %s", r.Code, r.Stderr)
	}
	if r := e2etest.Sentinel(t, "", s.env, "service", "devices", "revoke", "phone"); r.Code != 0 {
		t.Fatalf("service devices revoke phone: %d %s", r.Code, r.Stderr)
	}
	if c := page(); c != http.StatusUnauthorized {
		t.Fatalf("a revoked device's page: %d", c)
	}
	b, _ := os.ReadFile(filepath.Join(state, "sentinel", "web", "devices.json"))
	if strings.Contains(string(b), token) || strings.Contains(string(b), code) {
		t.Fatal("the device store holds a token or code in clear")
	}
}
