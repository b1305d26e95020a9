package runner

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// disguises turn a name into spellings some file system resolves to it.
var disguises = []func(string) string{
	func(s string) string { return s },
	strings.ToUpper,
	func(s string) string { return s + "." },
	func(s string) string { return s + " . " },
	func(s string) string { return s + "::$INDEX_ALLOCATION" },
	func(s string) string { return s[:2] + "\u200c" + s[2:] },
	func(s string) string { return "\ufeff" + s },
	func(s string) string { return strings.ReplaceAll(s, "s", "\u017f") },
	func(s string) string { return strings.ToUpper(s[1:min(len(s), 7)]) + "~1" },
}

// FuzzCheckPaths: (1) a .git at any depth or a .sentinel first, in any
// disguise, is always refused, wherever the fuzzer puts it; (2) whatever
// CheckPaths accepts stays inside the project and has no component a
// case-folding, HFS+ or NTFS file system would read as .git, nor a first
// one it would read as .sentinel. Run longer with
// go test ./runner -run '^$' -fuzz FuzzCheckPaths.
func FuzzCheckPaths(f *testing.F) {
	for _, s := range []string{"src/main.go", ".git/config", "a/.GIT/x", ".sentinel/config.toml", "a\\.git\\b", "..", "x/../y", ".gitignore", "GIT~1/c", ".g\u200dit"} {
		f.Add(s, "pre/fix", uint8(0), uint8(0))
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, path, prefix string, which, how uint8) {
		// (2) whatever is accepted is harmless.
		if CheckPaths(root, []string{path}) == nil {
			if !strings.HasPrefix(filepath.Join(root, path), root+string(filepath.Separator)) {
				t.Fatalf("accepted %q, which leaves the project", path)
			}
			for i, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' }) {
				if modelIsGit(part) || (i == 0 && modelIsState(part)) {
					t.Fatalf("accepted %q: %q is .git or .sentinel on some file system", path, part)
				}
			}
		}
		// (1) a disguised name is refused at any depth.
		name := ".git"
		if which%2 == 1 {
			name = ".sentinel"
			prefix = ""
		}
		d := disguises[int(how)%len(disguises)](name)
		p := d + "/" + path
		if prefix = strings.Trim(prefix, "/"); prefix != "" {
			p = prefix + "/" + p
		}
		if err := CheckPaths(root, []string{p}); err == nil {
			t.Fatalf("accepted %q (a disguised %s)", p, name)
		}
	})
}

// modelIsGit and modelIsState are a second, plainer statement of what the
// file systems do, to check forbiddenPath against.
func modelIsGit(part string) bool { return modelName(part) == ".git" || shortName(part, "GIT~") }
func modelIsState(part string) bool {
	return modelName(part) == ".sentinel" || shortName(part, "SENTIN~")
}

func modelName(part string) string {
	var kept []rune
	for i, w := 0, 0; i < len(part); i += w {
		r, width := utf8.DecodeRuneInString(part[i:])
		w = width
		switch {
		case r == utf8.RuneError, r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
			continue
		case r == ':':
			i = len(part)
			continue
		case r == '\u017f' || r == 'S':
			r = 's'
		}
		kept = append(kept, r)
	}
	return strings.ToLower(strings.TrimRight(string(kept), ". "))
}

func shortName(part, prefix string) bool {
	n := strings.ToUpper(modelName(part))
	if !strings.HasPrefix(n, prefix) || len(n) == len(prefix) {
		return false
	}
	return strings.Trim(n[len(prefix):], "0123456789") == ""
}
