package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// PersonGoCache finds the cache the way the go command does.
func TestPersonGoCacheIsWhereGoLooks(t *testing.T) {
	home := t.TempDir()
	envFile := filepath.Join(t.TempDir(), "env")
	os.WriteFile(envFile, []byte("GOPROXY=off\nGOCACHE=/from/envfile\n"), 0o600)
	cases := []struct {
		name string
		env  map[string]string
		want string
		ok   bool
	}{
		{"GOCACHE", map[string]string{"GOCACHE": "/a/b/", "HOME": home}, "/a/b", true},
		{"go env file", map[string]string{"GOENV": envFile, "HOME": home}, "/from/envfile", true},
		{"XDG cache", map[string]string{"XDG_CACHE_HOME": "/x", "HOME": home}, "/x/go-build", true},
		{"home", map[string]string{"HOME": home}, filepath.Join(home, ".cache", "go-build"), true},
		{"off", map[string]string{"GOCACHE": "off", "HOME": home}, "", false},
		{"relative", map[string]string{"GOCACHE": "rel", "HOME": home}, "", false},
	}
	for _, c := range cases {
		got, ok := PersonGoCache(func(k string) string { return c.env[k] })
		if got != c.want || ok != c.ok {
			t.Errorf("%s: PersonGoCache = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// normalize protects the person's cache when a writable root holds it, and
// makes it when it is missing (else the coder could make it first).
func TestNormalizeProtectsPersonsGoCache(t *testing.T) {
	caches := t.TempDir()
	gocache := filepath.Join(caches, "go-build")
	t.Setenv("GOCACHE", gocache)
	p, err := Profile{Workspace: t.TempDir(), Writable: []string{caches}}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	if !contains(p.Protected, resolve(gocache)) {
		t.Fatalf("Protected = %v, want the person's Go build cache %s in it", p.Protected, gocache)
	}
	if st, err := os.Stat(gocache); err != nil || !st.IsDir() {
		t.Fatalf("the missing cache was not made before the sandbox: %v", err)
	}
	p, err = Profile{Workspace: t.TempDir()}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	if contains(p.Protected, resolve(gocache)) {
		t.Fatalf("a cache outside every writable root was listed: %v", p.Protected)
	}
	if got := GoCacheIn(caches); len(got) != 1 || got[0] != resolve(gocache) {
		t.Fatalf("GoCacheIn(%s) = %v", caches, got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
