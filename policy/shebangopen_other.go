//go:build !unix

package policy

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// openScriptHead opens p to read its first line, never through a link
// (a system without shebangs judges no script by one, but the policy
// builds everywhere).
func openScriptHead(p string) (*os.File, error) {
	return nofollow.OpenFile(p, os.O_RDONLY, 0)
}
