package mcpserver

import (
	"slices"
	"sort"
	"strings"
)

// filter describes a read-only filter a pipe may feed without an entry:
// the options that take a separate value, the options refused (they read
// or write files, or run programs), and how many operands it may have
// (none of them a file: a filter reads its input).
type filter struct {
	valued  []string
	refused []string
	maxPos  int
}

var filters = map[string]filter{
	"grep":   {valued: []string{"-e", "-m", "-A", "-B", "-C", "--regexp", "--max-count", "--after-context", "--before-context", "--context"}, refused: []string{"-f", "--file", "-r", "-R", "--recursive", "--dereference-recursive", "-d", "--directories", "-D", "--devices"}, maxPos: 1},
	"egrep":  {valued: []string{"-e", "-m", "-A", "-B", "-C"}, refused: []string{"-f", "--file", "-r", "-R", "--recursive", "-d", "-D"}, maxPos: 1},
	"fgrep":  {valued: []string{"-e", "-m", "-A", "-B", "-C"}, refused: []string{"-f", "--file", "-r", "-R", "--recursive", "-d", "-D"}, maxPos: 1},
	"head":   {valued: []string{"-n", "-c", "--lines", "--bytes"}},
	"tail":   {valued: []string{"-n", "-c", "--lines", "--bytes"}},
	"wc":     {refused: []string{"--files0-from"}},
	"sort":   {valued: []string{"-k", "-t", "-S", "--key", "--field-separator", "--buffer-size"}, refused: []string{"-o", "--output", "-T", "--temporary-directory", "--compress-program", "--files0-from", "--random-source"}},
	"uniq":   {valued: []string{"-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars"}},
	"cut":    {valued: []string{"-d", "-f", "-c", "-b", "--delimiter", "--fields", "--characters", "--bytes"}},
	"tr":     {maxPos: 2},
	"nl":     {valued: []string{"-b", "-n", "-w", "-s", "-v", "-i"}},
	"cat":    {},
	"column": {valued: []string{"-s", "-o", "-c", "-N", "-t"}},
}

func filterNames() []string {
	var out []string
	for n := range filters {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// readOnlyFilter says whether argv is one of the read-only filters used the
// way a filter is: every word static, no option that reads or writes a file
// or runs a program, and no file operands.
func readOnlyFilter(argv []string, static []bool) bool {
	f, ok := filters[argv[0]]
	if !ok {
		return false
	}
	for _, s := range static {
		if !s {
			return false
		}
	}
	pos := 0
	hasE := false
	opts := true
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if opts && a == "--" {
			opts = false
			continue
		}
		if opts && strings.HasPrefix(a, "-") && a != "-" {
			name, _, attached := strings.Cut(a, "=")
			for _, r := range f.refused {
				if name == r || (!strings.HasPrefix(r, "--") && !strings.HasPrefix(a, "--") && len(a) > 2 && strings.ContainsRune(a[1:], rune(r[1]))) {
					return false
				}
			}
			if name == "-e" || name == "--regexp" {
				hasE = true
			}
			if !attached && slices.Contains(f.valued, a) {
				i++ // its value
			}
			continue
		}
		if a == "-" {
			continue // stdin
		}
		pos++
	}
	max := f.maxPos
	if hasE {
		max = 0
	}
	return pos <= max
}
