//go:build !linux && !darwin

package sandbox

import (
	"runtime"
)

// Probe reports what this machine can enforce.
func Probe(helper string) Capabilities {
	return Capabilities{Checks: []Check{{Name: "sandbox", Detail: "no backend on " + runtime.GOOS, Fix: "run on Linux or macOS, or with --sandbox off knowingly (unconfined)"}}}
}
