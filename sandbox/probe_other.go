//go:build !linux

package sandbox

import (
	"os/exec"
	"runtime"
)

// Probe reports what this machine can enforce.
func Probe(helper string) Capabilities {
	if runtime.GOOS == "darwin" {
		if _, err := exec.LookPath("sandbox-exec"); err == nil {
			return Capabilities{Checks: []Check{{Name: "seatbelt", OK: true, Detail: "sandbox-exec found"}}, Modes: []Mode{"seatbelt"}}
		}
	}
	return Capabilities{Checks: []Check{{Name: "sandbox", Detail: "no backend on " + runtime.GOOS, Fix: "run on Linux, or with --sandbox off knowingly"}}}
}
