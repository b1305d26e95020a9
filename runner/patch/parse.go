package patch

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Parse reads the output of `git diff --binary --no-renames` (renames, copies
// and mode changes are understood too) into files. Every file is flagged as
// RunsCodeLater says. A diff it cannot read is an error naming the line:
// the review must never show less than what would land.
func Parse(diff []byte) ([]File, error) {
	lines := strings.SplitAfter(string(diff), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var files []File
	i := 0
	for i < len(lines) {
		if !strings.HasPrefix(lines[i], "diff --git ") {
			if strings.TrimSpace(lines[i]) == "" {
				i++
				continue
			}
			return nil, fmt.Errorf("patch: line %d: %q is not part of a file's diff (want git diff output)", i+1, clip(lines[i]))
		}
		f, next, err := parseFile(lines, i)
		if err != nil {
			return nil, err
		}
		flag(&f)
		files = append(files, f)
		i = next
	}
	return files, nil
}

// parseFile reads one file starting at its "diff --git" line and returns
// the index of the line after it.
func parseFile(lines []string, start int) (File, int, error) {
	f := File{Status: Modified}
	var hdr strings.Builder
	hdr.WriteString(lines[start])
	oldP, newP := splitGitPaths(strings.TrimSuffix(strings.TrimPrefix(lines[start], "diff --git "), "\n"))
	i := start + 1
header:
	for ; i < len(lines); i++ {
		ln := lines[i]
		t := strings.TrimSuffix(ln, "\n")
		switch {
		case strings.HasPrefix(t, "diff --git "), strings.HasPrefix(t, "@@ "):
			break header
		case strings.HasPrefix(t, "GIT binary patch"), strings.HasPrefix(t, "Binary files "):
			f.Binary = true
			// the binary section runs to the next file, kept verbatim
			for ; i < len(lines) && !strings.HasPrefix(lines[i], "diff --git "); i++ {
				hdr.WriteString(lines[i])
			}
			break header
		case strings.HasPrefix(t, "old mode "):
			f.OldMode = strings.TrimPrefix(t, "old mode ")
			if f.Status == Modified {
				f.Status = Mode
			}
		case strings.HasPrefix(t, "new mode "):
			f.NewMode = strings.TrimPrefix(t, "new mode ")
		case strings.HasPrefix(t, "new file mode "):
			f.Status, f.NewMode = Added, strings.TrimPrefix(t, "new file mode ")
		case strings.HasPrefix(t, "deleted file mode "):
			f.Status, f.OldMode = Deleted, strings.TrimPrefix(t, "deleted file mode ")
		case strings.HasPrefix(t, "rename from "), strings.HasPrefix(t, "copy from "):
			_, p, _ := strings.Cut(t, " from ")
			oldP = unquote(p)
			f.Status = Renamed
		case strings.HasPrefix(t, "rename to "), strings.HasPrefix(t, "copy to "):
			_, p, _ := strings.Cut(t, " to ")
			newP = unquote(p)
			f.Status = Renamed
		case strings.HasPrefix(t, "--- "):
			if p := diffPath(t[4:], "a/"); p != "" {
				oldP = p
			}
		case strings.HasPrefix(t, "+++ "):
			if p := diffPath(t[4:], "b/"); p != "" {
				newP = p
			}
		case strings.HasPrefix(t, "index "):
			// "index abc..def 100644": the mode of an unchanged-mode file
			if fs := strings.Fields(t); len(fs) == 3 && f.OldMode == "" && f.NewMode == "" {
				f.OldMode, f.NewMode = fs[2], fs[2]
			}
		case strings.HasPrefix(t, "similarity index "), strings.HasPrefix(t, "dissimilarity index "):
		default:
			return f, i, fmt.Errorf("patch: line %d: unexpected %q in the header of %s", i+1, clip(t), firstNonEmpty(newP, oldP))
		}
		hdr.WriteString(ln)
	}
	f.Header = hdr.String()
	if !strings.HasSuffix(f.Header, "\n") {
		f.Header += "\n" // a diff cut at its last line still ends its header
	}
	f.Path, f.OldPath = newP, oldP
	if f.Status == Deleted {
		f.Path = oldP
	}
	if f.Status != Renamed {
		f.OldPath = ""
	}
	if f.Path == "" {
		return f, i, fmt.Errorf("patch: line %d: cannot tell which file this diff is for", start+1)
	}
	for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
		h, next, err := parseHunk(lines, i)
		if err != nil {
			return f, i, fmt.Errorf("patch: %s: %w", f.Path, err)
		}
		for _, l := range h.Lines {
			switch l[0] {
			case '+':
				f.Adds++
			case '-':
				f.Dels++
			}
		}
		f.Hunks = append(f.Hunks, h)
		i = next
	}
	if i < len(lines) && !strings.HasPrefix(lines[i], "diff --git ") {
		return f, i, fmt.Errorf("patch: line %d: unexpected %q after the hunks of %s", i+1, clip(lines[i]), f.Path)
	}
	if f.Status == Mode && (len(f.Hunks) > 0 || f.Binary || f.OldMode == f.NewMode) {
		f.Status = Modified // the content changed too
	}
	return f, i, nil
}

// parseHunk reads one @@ section; the counts in its header say where it ends.
func parseHunk(lines []string, start int) (Hunk, int, error) {
	h := Hunk{Header: strings.TrimSuffix(lines[start], "\n")}
	var err error
	if h.OldStart, h.OldCount, h.NewStart, h.NewCount, h.Section, err = parseRange(h.Header); err != nil {
		return h, start, fmt.Errorf("line %d: %w", start+1, err)
	}
	oldLeft, newLeft := h.OldCount, h.NewCount
	i := start + 1
	for ; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\n")
		if l == "" {
			// some tools strip the space of an empty context line
			l = " "
		}
		switch l[0] {
		case ' ':
			if oldLeft == 0 || newLeft == 0 {
				return h, i, hunkEnd(h, oldLeft, newLeft, i)
			}
			oldLeft--
			newLeft--
		case '-':
			if oldLeft == 0 {
				return h, i, hunkEnd(h, oldLeft, newLeft, i)
			}
			oldLeft--
		case '+':
			if newLeft == 0 {
				return h, i, hunkEnd(h, oldLeft, newLeft, i)
			}
			newLeft--
		case '\\':
			if len(h.Lines) == 0 {
				return h, i, fmt.Errorf("line %d: %q before any line", i+1, clip(l))
			}
		default:
			return h, i, hunkEnd(h, oldLeft, newLeft, i)
		}
		h.Lines = append(h.Lines, l)
		if oldLeft == 0 && newLeft == 0 {
			// take a trailing "\ No newline at end of file" with the hunk
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\\") {
				i++
				h.Lines = append(h.Lines, strings.TrimSuffix(lines[i], "\n"))
			}
			return h, i + 1, nil
		}
	}
	return h, i, hunkEnd(h, oldLeft, newLeft, i)
}

func hunkEnd(h Hunk, oldLeft, newLeft, i int) error {
	if oldLeft == 0 && newLeft == 0 {
		return nil
	}
	return fmt.Errorf("line %d: hunk %q ends early (%d old and %d new lines missing)", i+1, h.Header, oldLeft, newLeft)
}

// parseRange reads "@@ -a[,b] +c[,d] @@ section".
func parseRange(s string) (os, oc, ns, nc int, section string, err error) {
	bad := fmt.Errorf("%q is not a hunk header (want @@ -a,b +c,d @@)", clip(s))
	rest, ok := strings.CutPrefix(s, "@@ -")
	if !ok {
		return 0, 0, 0, 0, "", bad
	}
	ranges, section, ok := strings.Cut(rest, " @@")
	if !ok {
		return 0, 0, 0, 0, "", bad
	}
	o, n, ok := strings.Cut(ranges, " +")
	if !ok {
		return 0, 0, 0, 0, "", bad
	}
	num := func(r string) (int, int, bool) {
		a, b, has := strings.Cut(r, ",")
		x, err1 := strconv.Atoi(a)
		y := 1
		var err2 error
		if has {
			y, err2 = strconv.Atoi(b)
		}
		return x, y, err1 == nil && err2 == nil && x >= 0 && y >= 0
	}
	var ok1, ok2 bool
	os, oc, ok1 = num(o)
	ns, nc, ok2 = num(n)
	if !ok1 || !ok2 {
		return 0, 0, 0, 0, "", bad
	}
	return os, oc, ns, nc, strings.TrimPrefix(section, " "), nil
}

// splitGitPaths splits "a/x b/x" (or quoted forms) from a "diff --git" line.
// Unquoted paths with spaces are ambiguous there; the "---"/"+++" and
// rename lines, read later, win.
func splitGitPaths(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if q, err := strconv.QuotedPrefix(s); err == nil {
			a := unquote(q)
			b := unquote(strings.TrimSpace(s[len(q):]))
			return strings.TrimPrefix(a, "a/"), strings.TrimPrefix(b, "b/")
		}
	}
	if strings.HasSuffix(s, `"`) {
		if i := strings.LastIndex(s, ` "`); i >= 0 {
			return strings.TrimPrefix(s[:i], "a/"), strings.TrimPrefix(unquote(s[i+1:]), "b/")
		}
	}
	// the same path twice: "a/P b/P"
	if n := len(s); n%2 == 1 {
		a, b := s[:n/2], s[n/2+1:]
		if strings.HasPrefix(a, "a/") && strings.HasPrefix(b, "b/") && a[2:] == b[2:] {
			return a[2:], b[2:]
		}
	}
	if a, b, ok := strings.Cut(s, " b/"); ok {
		return strings.TrimPrefix(a, "a/"), b
	}
	return "", ""
}

// diffPath reads the path of a "---"/"+++" line; "" for /dev/null.
func diffPath(s, prefix string) string {
	s = strings.TrimSuffix(s, "\t") // git adds a tab after names with spaces
	if s == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(unquote(s), prefix)
}

// unquote undoes git's C-style quoting of unusual path names.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// Sort puts flagged files first, then orders by path.
func Sort(files []File) {
	sort.SliceStable(files, func(i, j int) bool {
		if files[i].Flagged != files[j].Flagged {
			return files[i].Flagged
		}
		return files[i].Path < files[j].Path
	})
}

func clip(s string) string { return textsafe.ClipBytes(strings.TrimSuffix(s, "\n"), 60) }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
