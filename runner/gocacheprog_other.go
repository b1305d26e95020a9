//go:build !unix

package runner

import (
	"errors"
	"os"
)

// openReadOnly: the person's cache is read only where ownership can be
// checked (unix); elsewhere every entry is a miss.
func openReadOnly(string) (*os.File, error) {
	return nil, errors.New("the person's Go build cache is read only on unix")
}

func ownedAndPrivate(os.FileInfo) bool { return false }
