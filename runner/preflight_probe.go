package runner

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// notTheAPI is an endpoint that answered every path of its coder's probe
// with 404: something answers there, but not the model API the coder
// speaks (Claude Code then waits for a person; Codex fails after a retry
// storm). Its text follows "its model endpoint URL".
type notTheAPI struct {
	api   string
	asked []string
}

func (e notTheAPI) Error() string {
	return fmt.Sprintf("answers HTTP 404 to %s: it is not the %s", strings.Join(e.asked, ", "), e.api)
}

// probeAPI is nil when base is the model API p describes, within timeout
// for every request together: reachable, then a GET of each p.List path
// until one answers other than 404, then a POST of {} to each p.Call path
// the same way. No credentials are sent: the provider answers 401/403, and
// nothing is billed. A probe with no paths asks for reachability only.
func probeAPI(ctx context.Context, base string, p coder.Probe, timeout time.Duration) error {
	u, err := url.Parse(base)
	if len(p.List)+len(p.Call) == 0 || err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return reachable(ctx, base, timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Directly, as Sentinel's proxy reaches it for the coder.
	tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	root := strings.TrimSuffix(base, "/")
	e := notTheAPI{api: p.API}
	ask := func(method, path string) (bool, error) {
		var body *strings.Reader
		if method == http.MethodPost {
			body = strings.NewReader("{}")
		} else {
			body = strings.NewReader("")
		}
		req, err := http.NewRequestWithContext(ctx, method, root+path, body)
		if err != nil {
			return false, fmt.Errorf("it is not a URL with a host")
		}
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			if err := reachError(err, timeout); err != nil {
				return false, err
			}
			return true, nil // a certificate not trusted here: it answered
		}
		resp.Body.Close()
		e.asked = append(e.asked, method+" "+path)
		return resp.StatusCode != http.StatusNotFound, nil
	}
	for _, c := range []struct {
		method string
		paths  []string
	}{{http.MethodGet, p.List}, {http.MethodPost, p.Call}} {
		for _, path := range c.paths {
			if ok, err := ask(c.method, path); ok || err != nil {
				return err
			}
		}
	}
	return e
}
