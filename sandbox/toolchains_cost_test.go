package sandbox

import (
	"os"
	"sync/atomic"
	"testing"
)

// DetectToolchains runs three times at every run's start (the first line,
// the coder's profile, the verification's); it used to resolve every
// credential location again for every candidate directory, thousands of
// lstat calls that were most of a run's start. Each location is resolved
// once per call now.
func TestDetectToolchainsResolvesEachCredentialLocationOnce(t *testing.T) {
	var calls atomic.Int64
	old := evalSymlinks
	evalSymlinks = func(p string) (string, error) { calls.Add(1); return old(p) }
	t.Cleanup(func() { evalSymlinks = old })
	home := t.TempDir()
	DetectToolchains(home, os.Getenv)
	n := calls.Load()
	secrets := int64(len(credentialPaths) + len(toolchainSecrets))
	// The credential locations once each, plus a few per candidate
	// (known roots, dependency stores, version files, PATH): well under
	// the candidates times the locations.
	if bound := 4 * secrets; n > bound {
		t.Fatalf("DetectToolchains resolved %d paths for an empty home (bound %d, %d credential locations): it resolves them again per candidate", n, bound, secrets)
	}
	t.Logf("%d resolutions for %d credential locations", n, secrets)
}
