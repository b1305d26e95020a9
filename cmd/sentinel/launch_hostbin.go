package main

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// pinHostPrograms fixes which of the person's own programs Sentinel may
// start on the host for this run (the verification seed's go, the
// supervisor's CLI, the notifier) before anything of the run exists — the
// supervisor backend is built before the runner starts: never from the
// project or an [exec] writable place, where a coder could plant one
// (hostbin.Person). The runner pins again with the sandbox's own roots.
func pinHostPrograms(root string, writable []string) {
	avoid := []string{root}
	if home, err := os.UserHomeDir(); err == nil {
		if w, err := config.ExpandWritable(writable, home); err == nil {
			avoid = append(avoid, w...)
		}
	}
	hostbin.PinPerson(avoid, hostbin.PersonPrograms...)
}
