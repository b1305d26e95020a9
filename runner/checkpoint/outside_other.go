//go:build !unix

package checkpoint

import (
	"errors"
	"os"
)

// linkFromStore: not on this system; undo puts back a copy.
func linkFromStore(pr *os.Root, anchor, base string) error {
	return errors.New("not on this system")
}
