//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

func TestReadRegistriesFromTheProjectAndThePerson(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	write(t, filepath.Join(ws, ".npmrc"), "# project\nregistry=http://registry.fake.test:4873/\n@corp:registry=https://npm.corp.example/\n")
	write(t, filepath.Join(home, ".npmrc"), "registry=https://ignored.example/\n")
	write(t, filepath.Join(ws, ".cargo", "config.toml"), "[source.crates-io]\nreplace-with = \"vendored\"\n[source.vendored]\ndirectory = \"vendor\"\n")
	env := map[string]string{"PIP_INDEX_URL": "https://pypi.corp.example/simple", "GOPROXY": "https://goproxy.corp.example,direct"}
	reg := readRegistries(dirFile(ws), home, func(k string) string { return env[k] })
	for eco, want := range map[string]string{
		policy.EcoNPM:    "registry.fake.test:4873 npm.corp.example",
		policy.EcoPython: "pypi.corp.example",
		policy.EcoGo:     "goproxy.corp.example sum.golang.org",
		policy.EcoCargo:  "",
	} {
		if got := strings.Join(reg.Hosts[eco], " "); got != want {
			t.Errorf("%s hosts = %q, want %q", eco, got, want)
		}
	}
	if !reg.CargoVendored {
		t.Error("vendored crates are not seen")
	}
	if f, ok := policy.FetchHosts("npm install", reg); !ok || strings.Join(f.Hosts, " ") != "npm.corp.example registry.fake.test:4873" {
		t.Errorf("npm install fetches from %q", f.Hosts)
	}
}

// TestReadRegistriesNeverBlocksOnAPlantedFIFO: the workspace's .npmrc is
// the coder's to make; a FIFO there must not hang the approval card.
func TestReadRegistriesNeverBlocksOnAPlantedFIFO(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, ".npmrc"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.WriteFile(filepath.Join(home, ".npmrc"), []byte("registry=https://npm.person.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := readRegistries(dirFile(ws), home, func(string) string { return "" })
	if got := strings.Join(reg.Hosts[policy.EcoNPM], " "); got != "npm.person.example" {
		t.Errorf("npm hosts = %q, want the person's", got)
	}
}

// TestRegistryDeniedSaysWhichHostAndWhy: a denied registry host's reason
// (the proxy's 403 and the note to the coder) names the host and that an
// install needs it; another host's reason is left alone.
func TestRegistryDeniedSaysWhichHostAndWhy(t *testing.T) {
	t.Parallel()
	reg := policy.Registries{Hosts: map[string][]string{policy.EcoNPM: {"registry.fake.test:4873"}}}
	for _, tc := range []struct {
		host string
		port int
		want string
	}{
		{"registry.fake.test", 4873, "registry.fake.test:4873 is the npm package registry"},
		{"pypi.org", 443, "pypi.org is the python package registry"},
		{"registry.npmjs.org", 443, "registry.npmjs.org is the npm package registry"},
	} {
		got := registryDenied("denied by the person", tc.host, tc.port, reg)
		if !strings.HasPrefix(got, "denied by the person (") || !strings.Contains(got, tc.want) {
			t.Errorf("%s:%d: %q, want it to say %q", tc.host, tc.port, got, tc.want)
		}
	}
	if got := registryDenied("denied by the person", "evil.example", 443, reg); got != "denied by the person" {
		t.Errorf("another host's reason changed: %q", got)
	}
}

// dirFile reads a workspace's files straight from dir.
func dirFile(dir string) func(...string) string {
	return func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
}
