// Package stamp is the identity of a build that sentinel-helper prints
// and the sentinel binary compares (internal/helperbin): it links nothing
// but the runtime's build information, so the helper, started for every
// tool call, does not carry the stamp cache's crypto.
package stamp

import (
	"runtime/debug"
	"strings"
)

// Arg makes the helper print its Stamp and exit.
const Arg = "stamp"

// protocol changes whenever the arguments or the behaviour the sentinel
// binary expects of the helper change, so that a helper left over from
// another version is never used.
const protocol = "1"

// Stamp identifies this build: the helper protocol, the Go version and the
// main module's version and VCS state. The sentinel binary uses a helper
// only when both stamps agree.
func Stamp() string {
	s := []string{"sentinel-helper-protocol/" + protocol}
	if bi, ok := debug.ReadBuildInfo(); ok {
		s = append(s, bi.GoVersion, bi.Main.Version)
		for _, kv := range bi.Settings {
			if strings.HasPrefix(kv.Key, "vcs.") {
				s = append(s, kv.Key+"="+kv.Value)
			}
		}
	}
	return strings.Join(s, " ")
}
