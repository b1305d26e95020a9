package runner

import (
	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/sandbox"
)

// pinPersonPrograms fixes, before the coder starts, which of the person's
// own programs Sentinel may later start on the host (the verification
// seed's go, a supervisor's CLI, the desktop notifier): each from PATH as
// Sentinel started, and never from the project or a root the coder may
// write, where it could plant one of the same name (hostbin.Person).
func pinPersonPrograms(root string, profile sandbox.Profile) {
	avoid := append([]string{root, profile.Workspace}, profile.Writable...)
	hostbin.PinPerson(avoid, hostbin.PersonPrograms...)
}
