package runner

import (
	"strings"
	"unicode/utf8"
)

// A patch never writes git's own directory or Sentinel's state. The names
// are compared as the file systems the project may be checked out on see
// them, not as bytes:
//
//   - case-insensitively (macOS, Windows): .GIT, .Sentinel, .ſentinel;
//   - without the code points HFS+ ignores (zero-width joiners, direction
//     marks…): ".g\u200cit" is .git on a Mac;
//   - without trailing dots and spaces and NTFS stream suffixes (Windows):
//     ".git.", ".git ", ".git::$INDEX_ALLOCATION";
//   - as 8.3 short names (Windows): GIT~1, SENTIN~1;
//   - with '\' as a separator too (Windows).
//
// .git is refused as any component (a nested .git directory is another
// repository's git dir); .sentinel as the first one.

// stateDirName is Sentinel's directory in the project.
const stateDirName = ".sentinel"

// forbiddenPath says why path (slash-separated, relative to the project)
// must never be part of a patch, or "" when it may be.
func forbiddenPath(path string) string {
	parts := strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' })
	for i, part := range parts {
		n := fsName(part)
		if isShortOrExact(n, ".git", "git~") {
			return "writes into .git (git's own directory)"
		}
		if i == 0 && isShortOrExact(n, stateDirName, "sentin~") {
			return "writes into .sentinel (Sentinel's own state)"
		}
	}
	return ""
}

// fsName is a path component as a case-folding, Unicode-ignoring or NTFS
// file system resolves it (before case folding, which the caller does).
func fsName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if hfsIgnorable(r) {
			continue
		}
		b.WriteRune(r)
	}
	n := b.String()
	if i := strings.IndexByte(n, ':'); i >= 0 {
		n = n[:i] // an NTFS alternate data stream names the file before ':'
	}
	return strings.TrimRight(n, ". ")
}

// hfsIgnorable reports the code points HFS+ drops from names (the list git
// checks in utf8.c), and the invalid-UTF-8 replacement rune so a broken
// sequence cannot hide a name either.
func hfsIgnorable(r rune) bool {
	switch {
	case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
		return true
	case r == utf8.RuneError:
		return true
	}
	return false
}

// isShortOrExact reports whether n is name (case-folded) or its 8.3 short
// form: prefix then digits ("GIT~1", "SENTIN~12").
func isShortOrExact(n, name, shortPrefix string) bool {
	if strings.EqualFold(n, name) {
		return true
	}
	// Compare rune by rune, so a multi-byte look-alike cannot slip past.
	r := []rune(n)
	p := []rune(shortPrefix)
	if len(r) <= len(p) || !strings.EqualFold(string(r[:len(p)]), shortPrefix) {
		return false
	}
	for _, c := range r[len(p):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
