package policy

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// foldPath folds a workspace-relative path for comparing it with the
// names the policy protects (.git, .sentinel, .claude, .envrc, .env, …).
// On macOS and Windows ".GIT/config" and ".git/config" are the same file,
// and HFS+ ignores some invisible code points, so every component is
// folded the way the most forgiving filesystem would see it: case folded
// (with non-ASCII letters that fold to ASCII, like the Kelvin sign, taken
// as that letter), default-ignorable code points dropped, and trailing
// dots and spaces trimmed (Windows). The result is only ever compared,
// never used as a path.
func foldPath(p string) string {
	if isPlainLower(p) {
		return p
	}
	parts := strings.Split(p, "/")
	for i, c := range parts {
		parts[i] = foldName(c)
	}
	return strings.Join(parts, "/")
}

// isPlainLower reports ASCII text without upper case letters, trailing
// dots or spaces in a component: already folded.
func isPlainLower(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') || c == '~' {
			return false
		}
		if (c == '.' || c == ' ') && (i+1 == len(p) || p[i+1] == '/') {
			return false
		}
	}
	return true
}

// foldName folds one path component.
func foldName(c string) string {
	var b strings.Builder
	for _, r := range c {
		if ignorable(r) {
			continue
		}
		b.WriteRune(foldRune(r))
	}
	s := b.String()
	if t := strings.TrimRight(s, ". "); t != "" && t != s && s != "." && s != ".." {
		s = t
	}
	// An NTFS short name (GIT~1) names the long one.
	if i := strings.LastIndexByte(s, '~'); i > 0 && i < len(s)-1 && isDigits(s[i+1:]) {
		switch s[:i] {
		case "git", "sentin", "claude", "vscode", "envrc", "github", "husky", "codex", "gemini", "cursor":
			s = "." + s[:i]
		}
	}
	return s
}

// foldRune lower-cases r, preferring an ASCII letter from its case-folding
// orbit (U+212A KELVIN SIGN is k, U+017F LONG S is s).
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		return unicode.ToLower(r)
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < utf8.RuneSelf {
			return unicode.ToLower(f)
		}
	}
	return unicode.ToLower(r)
}

// ignorable reports code points that filesystems or terminals may drop or
// not show: zero-width and joiner characters, bidirectional controls,
// soft hyphen, variation selectors and the byte order mark.
func ignorable(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5,
		r >= 0x180B && r <= 0x180F, r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x206F, r == 0x3164, r >= 0xFE00 && r <= 0xFE0F, r == 0xFEFF, r == 0xFFA0,
		r >= 0xFFF0 && r <= 0xFFF8, r >= 0xE0000 && r <= 0xE0FFF:
		return true
	}
	return false
}
