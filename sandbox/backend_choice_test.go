package sandbox

import (
	"strings"
	"testing"
)

// On Windows every mode but off is refused with the reason and the way
// out; off is the only way a coder runs unconfined, anywhere.
func TestSupportedRefusesWhereNoBackendIs(t *testing.T) {
	for _, m := range []Mode{ModeAuto, ModeNS, ModeBwrap, ModeSeatbelt} {
		err := supportedOn("windows", m)
		if err == nil {
			t.Fatalf("windows, --sandbox %s: accepted; it has no backend", m)
		}
		if msg := err.Error(); !strings.Contains(msg, "no sandbox backend on windows") || !strings.Contains(msg, "--sandbox off") || strings.Contains(msg, "\n") {
			t.Errorf("windows, --sandbox %s: %q; want one line naming the reason and --sandbox off", m, msg)
		}
	}
	for _, goos := range []string{"windows", "darwin", "linux", "freebsd"} {
		if err := supportedOn(goos, ModeOff); err != nil {
			t.Errorf("%s, --sandbox off: %v", goos, err)
		}
	}
	if err := supportedOn("darwin", ModeAuto); err != nil {
		t.Errorf("darwin, auto (Seatbelt): %v", err)
	}
	for _, m := range []Mode{ModeNS, ModeBwrap} {
		if err := supportedOn("darwin", m); err == nil || !strings.Contains(err.Error(), "Linux-only") {
			t.Errorf("darwin, --sandbox %s: %v; want it refused as Linux-only", m, err)
		}
	}
	if err := supportedOn("linux", ModeAuto); err != nil {
		t.Errorf("linux, auto: %v", err)
	}
}
