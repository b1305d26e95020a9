package checkpoint

import (
	"os"
	"path"
	"strings"

	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// openNoLinks opens the slash-separated rel under the place for reading,
// an element at a time, following no link in any element: the fallback
// where one openat2 cannot be used (a kernel before 5.6, another system,
// a path longer than PATH_MAX). os.Root alone would follow a link in a
// directory element as long as it stays in the place (31-ipatk16), so
// each directory on the way is opened with openRootNoLinks (undo's walk
// down) and only the last element through nofollow.
func openNoLinks(r *os.Root, rel string, flag int) (*os.File, error) {
	d, base := path.Split(rel)
	if d = strings.TrimSuffix(d, "/"); d == "" {
		return nofollow.OpenIn(r, base, flag, 0)
	}
	pr, err := openRootNoLinks(r, d)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	return nofollow.OpenIn(pr, base, flag, 0)
}
