//go:build !unix

package codex

import "errors"

// trustedProgram: no sqlite3 program is run here; the resume line is
// named instead.
func trustedProgram(string) error {
	return errors.New("not run on this system")
}
