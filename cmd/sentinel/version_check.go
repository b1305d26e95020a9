package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// `sentinel version --check` asks the Go module proxy (the first of
// GOPROXY, as go install would; proxy.golang.org when unset) for the
// newest release of Sentinel's module, and says whether this binary is
// older and how to update (issue 37.12). It is asked for, never done
// unasked: Sentinel does not reach the network on its own.

// defaultModule is Sentinel's module path when the build info has none.
const defaultModule = "github.com/sentinelhq/sentinel"

// latestTimeout bounds the proxy's answer.
const latestTimeout = 15 * time.Second

// checkNewer prints whether a newer version than this binary's exists.
func checkNewer(ctx context.Context, out io.Writer, getenv func(string) string) error {
	bi, _ := debug.ReadBuildInfo()
	mod := defaultModule
	if bi != nil && bi.Main.Path != "" {
		mod = bi.Main.Path
	}
	have := versionOf(version, bi)
	proxy, err := firstProxy(getenv("GOPROXY"))
	if err != nil {
		return err
	}
	latest, err := latestVersion(ctx, proxy, mod)
	if err != nil {
		return err
	}
	install := "go install " + mod + "/cmd/sentinel@" + latest
	switch {
	case !semver.IsValid(have):
		fmt.Fprintf(out, "the newest release is %s; this is a development build (%s): %s installs the release\n", latest, have, install)
	case semver.Compare(latest, have) > 0:
		fmt.Fprintf(out, "a newer version is available: %s (this is %s); update with: %s\n", latest, have, install)
	default:
		fmt.Fprintf(out, "this is the newest version (%s)\n", have)
	}
	return nil
}

// firstProxy is the proxy go install would ask first: GOPROXY's first
// entry that is a URL ("direct" and "off" are no proxy to ask).
func firstProxy(goproxy string) (string, error) {
	if goproxy == "" {
		return "https://proxy.golang.org", nil
	}
	for _, p := range strings.FieldsFunc(goproxy, func(r rune) bool { return r == ',' || r == '|' }) {
		switch p = strings.TrimSpace(p); p {
		case "direct", "":
			continue
		case "off":
			return "", errors.New("version --check: GOPROXY is off, so there is no module proxy to ask; set GOPROXY=https://proxy.golang.org to check")
		}
		return strings.TrimSuffix(p, "/"), nil
	}
	return "", errors.New("version --check: GOPROXY names no module proxy (only direct); set GOPROXY=https://proxy.golang.org to check")
}

// latestVersion is the newest release the proxy knows, found as the go
// command finds it: the highest release in MODULE/@v/list, or, when the
// list has none, the proxy's MODULE/@latest. A file proxy made from a
// module cache (GOPROXY=file://$GOMODCACHE/cache/download) serves only the
// list, and asking it for @latest alone failed.
func latestVersion(ctx context.Context, proxy, mod string) (string, error) {
	esc, err := module.EscapePath(mod)
	if err != nil {
		return "", fmt.Errorf("version --check: %w", err)
	}
	u, err := url.Parse(proxy)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "file") {
		return "", fmt.Errorf("version --check: GOPROXY entry %q is not an http(s) or file URL", textsafe.Line(proxy))
	}
	get := func(name string) ([]byte, error) {
		if u.Scheme == "file" {
			return os.ReadFile(filepath.Join(filepath.FromSlash(u.Path), filepath.FromSlash(esc), filepath.FromSlash(name)))
		}
		return fetchLatest(ctx, proxy+"/"+esc+"/"+name)
	}
	list, listErr := get("@v/list")
	if v := newestRelease(string(list)); listErr == nil && v != "" {
		return v, nil
	}
	body, err := get("@latest")
	if err != nil {
		if listErr != nil {
			err = listErr // the list is what a proxy must serve
		}
		return "", fmt.Errorf("version --check: asking %s: %w", textsafe.Line(proxy), err)
	}
	var info struct{ Version string }
	if err := json.Unmarshal(body, &info); err != nil || !semver.IsValid(info.Version) {
		return "", fmt.Errorf("version --check: %s gave no version for %s", textsafe.Line(proxy), mod)
	}
	return info.Version, nil
}

// newestRelease is the highest release (no pre-release) in a proxy's
// @v/list, "" when it has none.
func newestRelease(list string) string {
	best := ""
	for _, v := range strings.Fields(list) {
		if semver.IsValid(v) && semver.Prerelease(v) == "" && semver.Build(v) == "" && (best == "" || semver.Compare(v, best) > 0) {
			best = v
		}
	}
	return best
}

func fetchLatest(ctx context.Context, u string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, latestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s", resp.Status)
	}
	return io.ReadAll(io.LimitReader(resp.Body, 64<<10))
}
