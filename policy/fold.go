package policy

import (
	"strings"
)

// foldPath folds a workspace-relative path for comparing it with the
// names the policy protects (.git, .sentinel, .claude, .envrc, .env, …).
// On macOS and Windows ".GIT/config" and ".git/config" are the same file,
// and HFS+ ignores some invisible code points, so every component is
// folded the way the most forgiving filesystem would see it: FoldPathName
// (invisible code points dropped, NFKC, case folded, trailing dots and
// spaces trimmed), and an NTFS short name (GIT~1) taken as the long name
// it stands for. The result is only ever compared, never used as a path.
func foldPath(p string) string {
	s := FoldPathName(p)
	if !strings.Contains(s, "~") {
		return s
	}
	parts := strings.Split(s, "/")
	for i, c := range parts {
		parts[i] = longName(c)
	}
	return strings.Join(parts, "/")
}

// foldName folds one path component.
func foldName(c string) string { return longName(FoldPathName(c)) }

// longName maps an NTFS short name of a protected name (GIT~1) to it.
func longName(s string) string {
	if i := strings.LastIndexByte(s, '~'); i > 0 && i < len(s)-1 && isDigits(s[i+1:]) {
		switch s[:i] {
		case "git", "sentin", "claude", "vscode", "envrc", "github", "husky", "codex", "gemini", "cursor":
			return "." + s[:i]
		}
	}
	return s
}
