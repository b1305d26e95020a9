package policy

import (
	"path/filepath"
	"strings"
)

// find that deletes .git directories (issue 32, polcorp15): a name test
// that picks .git (-name .git, -iname .git, -path '*/.git', -ipath,
// -wholename) with a deleting action (-delete, -exec/-execdir/-ok rm)
// deletes the history of every repository below its starting points, the
// project's own ./.git among them; `find . -type d -name .git | xargs rm
// -rf` is spelled as that find (findfeed.go). It is denied as rm -rf .git
// is, whatever else narrows the walk.

// findGitWipe denies a find that picks .git and deletes what it picks.
func (x *cmdCtx) findGitWipe(args []word) {
	picksGit, deletes := false, false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch v {
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			if i+1 < len(args) && args[i+1].static && namesGitDir(v, args[i+1].val) {
				picksGit = true
			}
			i++
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < len(args) && filepath.Base(args[i+1].val) == "rm" {
				deletes = true
			}
		}
	}
	if picksGit && deletes {
		x.add(Deny, RulePathWriteProtect, "find picks .git directories and deletes them: the project's history (./.git) and any other repository's")
	}
}

// namesGitDir: the test's pattern matches a directory named .git.
func namesGitDir(test, pat string) bool {
	p := pat
	if strings.HasPrefix(test, "-i") {
		p = strings.ToLower(p)
	}
	if test == "-name" || test == "-iname" {
		return p == ".git" || p == ".git*"
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	return strings.Contains(p, "/") && (base == ".git" || base == ".git*")
}
