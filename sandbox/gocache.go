package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The person's Go build cache is trusted by every build they run on the
// host: whoever can write it can make their next `go build` link code of
// their choosing (nothing checks that an entry is what its action
// produces). Sentinel also seeds each verification's private cache from it
// (runner/verify_goseed_person.go). So no coder is ever given it writable:
// when it lies inside a writable root of any profile (an exec place that
// holds it, a configured writable ~/.cache), normalize keeps it read-only
// like .git/hooks, making it first when it does not exist yet (else the
// coder could make it, with entries of its choosing, before the person's
// go does).

// PersonGoCache is the Go build cache the person's own go command uses,
// found the way go finds it: $GOCACHE, else GOCACHE in the go env file
// ($GOENV, else <user config dir>/go/env), else <user cache dir>/go-build.
// ok is false when it is off or cannot be placed (a relative path).
func PersonGoCache(getenv func(string) string) (dir string, ok bool) {
	v := getenv("GOCACHE")
	if v == "" {
		v = goEnvFileValue(getenv, "GOCACHE")
	}
	if v == "" {
		base := getenv("XDG_CACHE_HOME")
		if base == "" || !filepath.IsAbs(base) {
			home := getenv("HOME")
			if home == "" || !filepath.IsAbs(home) {
				return "", false
			}
			base = filepath.Join(home, ".cache")
		}
		v = filepath.Join(base, "go-build")
	}
	if v == "off" || !filepath.IsAbs(v) {
		return "", false
	}
	return filepath.Clean(v), true
}

// goEnvFileValue is key's value in the person's go env file, or "".
func goEnvFileValue(getenv func(string) string, key string) string {
	file := getenv("GOENV")
	if file == "off" {
		return ""
	}
	if file == "" {
		base := getenv("XDG_CONFIG_HOME")
		if base == "" || !filepath.IsAbs(base) {
			home := getenv("HOME")
			if home == "" || !filepath.IsAbs(home) {
				return ""
			}
			base = filepath.Join(home, ".config")
		}
		file = filepath.Join(base, "go", "env")
	}
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	val := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, found := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if found && strings.TrimSpace(k) == key {
			val = strings.TrimSpace(v) // the last one wins, as in go
		}
	}
	return val
}

// protectPersonGoCache adds the person's Go build cache to p.Protected when
// it lies inside one of p's writable roots (p normalized), and refuses a
// writable root at or inside it.
func (p Profile) protectPersonGoCache() (Profile, error) {
	dir, ok := PersonGoCache(os.Getenv)
	if !ok {
		return p, nil
	}
	dir = resolve(dir)
	roots := append([]string{p.Workspace}, p.Writable...)
	if p.TempDir != "" {
		roots = append(roots, resolve(filepath.Clean(p.TempDir)))
	}
	for _, r := range roots {
		if within(r, dir) {
			return p, fmt.Errorf("sandbox profile: writable path %s is in your Go build cache %s, which every build you run trusts; leave it out of the writable paths", r, dir)
		}
	}
	for _, r := range roots {
		if !within(dir, r) {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return p, fmt.Errorf("sandbox profile: your Go build cache %s lies inside writable %s and could not be made to keep it read-only: %v; set GOCACHE outside it", dir, r, err)
		}
		p.Protected = append(p.Protected, resolve(dir))
		return p, nil
	}
	return p, nil
}

// GoCacheIn is the person's Go build cache when it lies inside root (for
// the MCP file tools, which keep the sandbox's protected paths), else nil.
func GoCacheIn(root string) []string {
	dir, ok := PersonGoCache(os.Getenv)
	if !ok || !within(resolve(dir), resolve(filepath.Clean(root))) {
		return nil
	}
	return []string{resolve(dir)}
}
