package sandbox

import (
	"os"
	"os/exec"
)

// Probe reports what this Mac can enforce (macCapabilities).
func Probe(helper string) Capabilities {
	tmp, err := os.MkdirTemp("", "sentinel-probe-")
	if err != nil {
		return Capabilities{Checks: []Check{{Name: "seatbelt", Detail: "no temp dir to probe in: " + err.Error(), Fix: "check $TMPDIR"}}}
	}
	defer os.RemoveAll(tmp)
	tmp = resolve(tmp) // /var/folders/… is /private/var/folders/…, which is what Seatbelt matches
	return macCapabilities(func(name string, args ...string) error {
		c := exec.Command(name, args...)
		c.Env = []string{"PATH=/usr/bin:/bin"}
		return c.Run()
	}, tmp)
}
