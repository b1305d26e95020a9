package patch

import (
	"fmt"
	"strings"
)

// Whole reports whether a file can only be taken or left as a whole: binary
// files, added and deleted files, and files with no hunks (a pure mode
// change or rename).
func (f File) Whole() bool {
	return f.Binary || f.Status == Added || f.Status == Deleted || len(f.Hunks) == 0
}

// Select rebuilds a patch holding only what accept keeps. For a Whole file,
// accept(fileIdx, -1) decides; for any other file, accept(fileIdx, hunkIdx)
// decides each hunk, and the file (with any mode change or rename it
// carries) is kept when at least one of its hunks is. The new-side line
// numbers of later hunks are shifted by what the dropped hunks would have
// added or removed, so `git apply` takes the result without fuzz. Nothing
// accepted gives an empty patch.
func Select(files []File, accept func(fileIdx, hunkIdx int) bool) []byte {
	var b strings.Builder
	for fi, f := range files {
		if f.Whole() {
			if accept(fi, -1) {
				writeFile(&b, f, nil)
			}
			continue
		}
		keep := make([]bool, len(f.Hunks))
		any := false
		for hi := range f.Hunks {
			keep[hi] = accept(fi, hi)
			any = any || keep[hi]
		}
		if any {
			writeFile(&b, f, keep)
		}
	}
	return []byte(b.String())
}

// SelectAll is Select with everything accepted.
func SelectAll(files []File) []byte {
	return Select(files, func(int, int) bool { return true })
}

// writeFile writes a file's header and its kept hunks (all when keep is nil).
func writeFile(b *strings.Builder, f File, keep []bool) {
	b.WriteString(f.Header)
	shift := 0 // new-side lines the dropped hunks before this one would have added
	for hi, h := range f.Hunks {
		if keep != nil && !keep[hi] {
			shift += h.NewCount - h.OldCount
			continue
		}
		if shift == 0 {
			b.WriteString(h.Header)
		} else {
			b.WriteString(shiftedHeader(h, shift))
		}
		b.WriteByte('\n')
		for _, l := range h.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
}

// shiftedHeader is h's @@ line with its new start moved back by shift.
func shiftedHeader(h Hunk, shift int) string {
	s := fmt.Sprintf("@@ -%d,%d +%d,%d @@", h.OldStart, h.OldCount, h.NewStart-shift, h.NewCount)
	if h.Section != "" {
		s += " " + h.Section
	}
	return s
}
