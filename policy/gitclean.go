package policy

import (
	"path/filepath"
	"strings"
)

// git clean deletes the untracked files under its pathspecs, or under the
// directory it runs in: `git clean -fdx ~`, `git -C ~ clean -fdx`, `cd ~
// && git clean -fdx` destroy outside the workspace, which no checkpoint
// covers: denied as `rm -rf ~` is. Inside the workspace it is judged as
// before (inplace.go).

// gitCleanOutside denies a forced git clean whose pathspec or working
// directory is outside the workspace.
func (x *cmdCtx) gitCleanOutside(sargs []word) {
	if hasOpt(sargs, "n", "--dry-run") {
		return
	}
	var places []string
	pathspec := false
	for i := 0; i < len(sargs); i++ {
		a := sargs[i]
		switch {
		case a.val == "-e" || a.val == "--exclude":
			i++
		case a.val == "--":
		case strings.HasPrefix(a.val, "-"):
		default:
			pathspec = true
			places = append(places, x.resolve(a)...)
		}
	}
	if !pathspec && x.cw != nil {
		places = append(places, x.cw.dirs...)
	}
	for _, p := range places {
		if f := x.c.pathVerdict(filepath.Join(p, "untracked"), true); f.d == Deny && f.rule == RulePathWriteOutside {
			x.add(Deny, RulePathWriteOutside, "git clean deletes untracked files in "+x.c.show(p)+", outside the workspace")
			return
		}
	}
}
