package sandbox

import (
	"fmt"
	"runtime"
)

// ModeSeatbelt is the macOS backend: /usr/bin/sandbox-exec with a profile
// rendered from the plan (seatbelt.go). --sandbox auto picks it on macOS.
const ModeSeatbelt Mode = "seatbelt"

// Supported refuses, in one line naming the fix, a --sandbox mode this
// platform has no backend for. Windows has none yet: every mode but off
// is refused there, so a coder never runs unconfined unless the person
// said --sandbox off. run, exec and Prepare (mcp exec) ask it first.
func Supported(m Mode) error { return supportedOn(runtime.GOOS, m) }

// supportedOn is Supported for goos, so the refusal of every platform is
// tested on any.
func supportedOn(goos string, m Mode) error {
	if m == ModeOff {
		return nil
	}
	switch goos {
	case "linux":
		return nil
	case "darwin":
		if m == ModeAuto || m == ModeSeatbelt {
			return nil
		}
		return fmt.Errorf("sandbox: --sandbox %s is Linux-only; on macOS use --sandbox auto (Seatbelt, through /usr/bin/sandbox-exec)", m)
	}
	return fmt.Errorf("sandbox: Sentinel has no sandbox backend on %s yet, so it will not run the coder; run it on Linux or macOS, or pass --sandbox off to run it unconfined, knowingly", goos)
}
