package checkpoint

import (
	"fmt"
	"time"
)

// maxName is the longest name one directory entry may have (NAME_MAX on
// Linux and the BSDs).
const maxName = 255

// besideName is a fresh name for a file made beside base and then renamed
// over it: ".<base>.sentinel-<tag>-<n>", or ".sentinel-<tag>-<n>" when
// that would be longer than a name may be: a file whose own name is near
// the bound (the coder may choose such names, and the person may have
// them) is then still put back, not refused with "file name too long".
func besideName(base, tag string) string {
	n := time.Now().UnixNano()
	if s := fmt.Sprintf(".%s.sentinel-%s-%d", base, tag, n); len(s) <= maxName {
		return s
	}
	return fmt.Sprintf(".sentinel-%s-%d", tag, n)
}
