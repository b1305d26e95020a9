package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/sandbox"
)

// A yes from the overlay probe is kept across processes while the machine
// is unchanged; a changed helper asks again, and a no is never kept.
func TestOverlayProbeYesIsKeptUntilTheHelperChanges(t *testing.T) {
	if _, err := os.ReadFile("/proc/sys/kernel/random/boot_id"); err != nil {
		t.Skip("no boot id here: the probe is never cached")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	calls, answer := 0, error(nil)
	old := overlayProbe
	overlayProbe = func(context.Context, string, sandbox.Mode, string, string) error { calls++; return answer }
	t.Cleanup(func() { overlayProbe = old })
	helper := filepath.Join(t.TempDir(), "sentinel-helper")
	if err := os.WriteFile(helper, []byte("v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	lower, upper := t.TempDir(), t.TempDir()
	ask := func() error {
		return overlayWorksCached(context.Background(), helper, sandbox.ModeAuto, lower, upper)
	}

	answer = errors.New("no overlay here")
	if ask() == nil || ask() == nil || calls != 2 {
		t.Fatalf("a no: %d probes for two questions, want 2 (a no is never kept)", calls)
	}
	answer, calls = nil, 0
	if ask() != nil || ask() != nil || calls != 1 {
		t.Fatalf("a yes: %d probes for two questions, want 1 (the second from the cache)", calls)
	}
	if err := sandboxModeAsks(lower, upper, helper); err != nil || calls != 2 {
		t.Fatalf("another sandbox mode: %d probes in all, want 2 (%v)", calls, err)
	}
	// Another helper build: asked again.
	later := time.Now().Add(time.Hour)
	if err := os.WriteFile(helper, []byte("v2 longer"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(helper, later, later)
	if ask() != nil || calls != 3 {
		t.Fatalf("a changed helper: %d probes in all, want 3", calls)
	}
	// The cache file altered by hand: not trusted, asked again.
	state := filepath.Join(os.Getenv("XDG_STATE_HOME"), "sentinel", "overlay-probe-cache.json")
	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatalf("no cache file at %s: %v", state, err)
	}
	if err := os.WriteFile(state, append(b[:len(b)-4], []byte("x\"}]")...), 0o600); err != nil {
		t.Fatal(err)
	}
	if ask() != nil || calls != 4 {
		t.Fatalf("a tampered cache: %d probes in all, want 4", calls)
	}
}

func sandboxModeAsks(lower, upper, helper string) error {
	return overlayWorksCached(context.Background(), helper, sandbox.ModeBwrap, lower, upper)
}
