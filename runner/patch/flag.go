package patch

import (
	"github.com/sentinelhq/sentinel/policy"
)

// RunsCodeLater reports whether a path is one that tools run, execute or
// obey later (SECURITY.md layer 4). The list is policy/runlater.toml, the
// same one that makes the coder's writes to such files person-only.
func RunsCodeLater(p string) bool { return WhyRunsCodeLater(p) != "" }

// WhyRunsCodeLater says why a path runs code later, or "" when it does not.
// Names match case-insensitively and Unicode-folded: the project may land
// on a file system where `.VSCODE/` is `.vscode/`.
//
// A CI file inside a vendored tree (node_modules/**/.travis.yml) is
// another project's and is not flagged (policy.RunsLaterHere, the write
// check's own rule); everything else on the list is flagged wherever it is.
func WhyRunsCodeLater(p string) string {
	e, ok := policy.RunsLaterHere(p)
	if !ok {
		return ""
	}
	return e.Reason
}

// Git's modes for what is not a plain file.
const (
	modeExec    = "100755"
	modeSymlink = "120000"
	modeGitlink = "160000" // a submodule: a commit of another repository
)

// flag marks a file that runs code later, with the reason the review shows:
// a path on the list, a submodule, a symlink or a new executable.
func flag(f *File) {
	why := WhyRunsCodeLater(f.Path)
	if why == "" && f.OldPath != "" {
		why = WhyRunsCodeLater(f.OldPath)
	}
	also := ""
	if f.Status != Deleted {
		switch {
		case f.NewMode == modeGitlink:
			also = "submodule: git checks out another repository's code here"
		case f.NewMode == modeSymlink && f.OldMode == modeSymlink:
			also = "symlink changed: what it points to is what tools open"
		case f.NewMode == modeSymlink:
			also = "new symlink: what it points to is what tools open"
		case f.NewMode == modeExec && f.Status == Added:
			also = "new executable"
		case f.NewMode == modeExec && f.OldMode != modeExec:
			also = "made executable"
		}
	}
	switch {
	case why == "":
		why = also
	case also != "":
		why += " · " + also
	}
	f.Flagged, f.FlagReason = why != "", why
}
