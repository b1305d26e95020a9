package tmux

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The service serves its page where [service] web says; `service pair`
// prints a QR code and a one-time link; the device that opens it is
// listed by `service devices`, and revoking it shuts it out at once.
func TestServicePairAndDevices(t *testing.T) {
	s := startUserService(t, "[service]\nweb = \"127.0.0.1:0\"\n")
	var state string
	for _, e := range s.env {
		if v, ok := strings.CutPrefix(e, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	urlFile := filepath.Join(state, "sentinel", "web", "url")
	s.waitFor(t, "the page's address", func() bool { _, err := os.Stat(urlFile); return err == nil })

	r := sentinel(t, "", s.env, "service", "pair")
	if r.code != 0 || !strings.Contains(r.stdout, "▀") {
		t.Fatalf("service pair: exit %d, no QR code:\n%s%s", r.code, r.stdout, r.stderr)
	}
	m := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/pair\?code=([A-Z2-7]+)`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("service pair printed no link:\n%s", r.stdout)
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
	if r := sentinel(t, "", s.env, "service", "devices"); r.code != 0 || !strings.Contains(r.stdout, "phone") {
		t.Fatalf("service devices: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := sentinel(t, "", s.env, "service", "devices", "revoke", "tablet"); r.code == 0 || !strings.Contains(r.stderr, "no device is named") {
		t.Fatalf("revoking an unknown device: %d %s", r.code, r.stderr)
	}
	if r := sentinel(t, "", s.env, "service", "devices", "revoke", "phone"); r.code != 0 {
		t.Fatalf("service devices revoke phone: %d %s", r.code, r.stderr)
	}
	if c := page(); c != http.StatusUnauthorized {
		t.Fatalf("a revoked device's page: %d", c)
	}
	b, _ := os.ReadFile(filepath.Join(state, "sentinel", "web", "devices.json"))
	if strings.Contains(string(b), token) || strings.Contains(string(b), code) {
		t.Fatal("the device store holds a token or code in clear")
	}
}
