package mcpserver

import (
	"strings"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// A protected location is known however its path is spelled: macOS's file
// systems, Windows' and a casefolded ext4 or tmpfs directory take
// "TEAM.gitconfig" for "team.gitconfig" (and HFS+ leaves some invisible
// code points out, and compares é composed or not alike), so the guard
// compares folded text: case folded, Unicode decomposed, HFS+'s ignored
// code points left out. On a file system that tells them apart the folded
// match refuses a name that differs only so, which costs nothing.

// foldPath is p as the most forgiving file system compares it.
func foldPath(p string) string {
	p = strings.Map(func(r rune) rune {
		if hfsIgnorable(r) {
			return -1
		}
		return r
	}, p)
	return norm.NFD.String(cases.Fold().String(p)) // a Caser is not shared: it may keep state
}

func hfsIgnorable(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// withinFolded is within on folded text.
func withinFolded(p, root string) bool { return within(foldPath(p), foldPath(root)) }
