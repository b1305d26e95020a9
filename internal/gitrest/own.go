package gitrest

import (
	"fmt"
	"strings"
)

// Own takes p out of before and now (so Changes does not name it) when it
// is an agent's own state: a regular file now of at most max bytes that
// was a regular file or absent before. It says whether it did; a link, a
// directory, a special file or a larger file stays in, to be named.
func Own(before, now *Rest, p string, max int64) bool {
	a, has := now.stamps[p]
	b, had := before.stamps[p]
	if !has || !regularUpTo(a, max) || had && !strings.HasPrefix(b, "file ") {
		return false
	}
	if had && a == b {
		return false // unchanged: nothing to tell
	}
	delete(now.stamps, p)
	delete(before.stamps, p)
	return true
}

// regularUpTo says whether stamp s is a regular file's of at most max bytes.
func regularUpTo(s string, max int64) bool {
	var mode string
	var size int64
	if _, err := fmt.Sscanf(s, "file %s %d", &mode, &size); err != nil {
		return false
	}
	return size >= 0 && size <= max
}
