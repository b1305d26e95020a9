package mcpserver

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A command that makes a project's .sentinel/ (or a file in it) under an
// rw path writes what a run there would take for the person's own policy
// and templates without a trust step (in a git repository). markStateWrite
// records that a client wrote them (config.MarkCoderWrote), so that a run
// there uses them only once the person trusted them; it says whether p was
// such a path and, when marking failed, why.
func markStateWrite(p string) (state bool, err error) {
	place := ""
	switch {
	case strings.EqualFold(filepath.Base(p), ".sentinel"):
		place = filepath.Dir(p)
	case strings.EqualFold(filepath.Base(filepath.Dir(p)), ".sentinel"):
		place = filepath.Dir(filepath.Dir(p))
	default:
		return false, nil
	}
	for _, name := range []string{"policy.toml", "templates.toml"} {
		if e := config.MarkCoderWrote(place, name); e != nil && err == nil {
			err = e
		}
	}
	return true, err
}

// stateWriteNote is the line that says what markStateWrite did for p.
func stateWriteNote(p string, err error) string {
	if err != nil {
		return "could not record that the command wrote " + textsafe.Line(p) + " (" + textsafe.Line(err.Error()) + "): a run there would follow it; look at it or delete it"
	}
	return "a run in " + textsafe.Line(filepath.Dir(p)) + " uses what the command wrote in " + textsafe.Line(p) + " only once the person trusts it (sentinel config trust)"
}
