package policy

import (
	"path/filepath"
	"strings"
)

// Destroying the whole project (issue 32, polcorp8 destroy-in): a
// recursive deletion of the workspace root, of a directory above it, or of
// every entry of the root by a catch-all glob (rm -rf ., rm -rf ../NAME,
// rm -rf "$PWD", rm -rf "$(pwd)", rm -rf ./*, rm -rf -- * .[!.]*), and a
// find rooted there that deletes whatever it walks with no test that
// narrows it (find . -delete, find . -mindepth 1 -exec rm -rf {} +), take
// the project's .git with it: it is denied as rm -rf .git is (a write into
// .git), not asked. Deleting a named directory (rm -rf tests/x), a glob
// that names something (rm -rf *.log, rm -rf build/*) and a find with a
// name, path or age test (find . -name '*.pyc' -delete) are judged as
// before. git clean is not here: it never deletes .git or tracked files,
// and the checkpoint (in place) or the copy (sentinel run) brings back
// what it removes; it stays with git.destructive.

// judgeProjectWipe denies rm and find forms that delete the whole project.
func (x *cmdCtx) judgeProjectWipe(args []word) {
	if x.c.ws == "" || len(args) < 2 {
		return
	}
	switch filepath.Base(args[0].val) {
	case "rm":
		if !hasOpt(args[1:], "rR", "--recursive") || x.part != nil && (strings.HasPrefix(x.part.Via, "find ") || strings.Contains(x.part.Via, "submodule")) {
			return // find -exec rm {}: findWipe judges what find walks; git submodule foreach runs in each submodule
		}
		for _, w := range operands(args[1:], "", nil) {
			if x.wipesRoot(w) {
				x.add(Deny, RulePathWriteProtect, "deletes the whole project ("+w.val+"), its .git with it")
				return
			}
		}
	case "find":
		x.findWipe(args[1:])
		x.findGitWipe(args[1:]) // findgitwipe.go: find . -name .git -exec rm -rf {} +
	}
}

// wipesRoot reports whether deleting w recursively deletes the workspace
// root or every entry of it.
func (x *cmdCtx) wipesRoot(w word) bool {
	if !w.static {
		return false
	}
	if w.pattern {
		dir, base := filepath.Split(w.val)
		if base == "" || strings.Trim(base, "*?[]!^.") != "" {
			return false // a glob that names something: *.log, build*
		}
		if dir == "" {
			dir = "."
		}
		w = word{val: dir, static: true}
	}
	for _, p := range x.resolve(w) {
		if p == x.c.ws || within(x.c.ws, p) {
			return true
		}
	}
	return false
}

// findWideOpts are find's options and tests that do not narrow what it
// walks to something named; any other test (-name, -path, -mtime, -size,
// -maxdepth…) does, and the find is judged as before.
var findWideOpts = wordSet{words: []string{"-mindepth", "-depth", "-d", "-xdev", "-mount", "-type", "-xtype", "-print", "-print0",
	"-ignore_readdir_race", "-noleaf", "-true", "-P", "-L", "-H", "-O0", "-O1", "-O2", "-O3", "-follow", "-nowarn", "-warn"}}

// findNameTests are find's tests that name what they pick.
var findNameTests = wordSet{words: []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"}}

// findPatternSparesGit: a negated name test with pattern pat excludes the
// project's ./.git (so the walk is narrowed and judged as before).
func findPatternSparesGit(test, pat string) bool {
	target := ".git"
	if test != "-name" && test != "-iname" {
		target = "./.git"
	}
	if strings.HasPrefix(test, "-i") {
		pat, target = strings.ToLower(pat), strings.ToLower(target)
	}
	ok, err := filepath.Match(pat, target)
	return ok || err != nil
}

// findWipe denies a find rooted at the workspace (or above) that deletes
// everything it walks. A depth limit of one or more and negated name tests
// that spare something other than .git do not narrow it (polcorp16).
func (x *cmdCtx) findWipe(args []word) {
	var roots []word
	deletes := false
	i := 0
	for i < len(args) && (args[i].val == "-H" || args[i].val == "-L" || args[i].val == "-P") {
		i++
	}
	if i < len(args) && args[i].val == "--" { // find -- -delete walks "." (revin)
		i++
	}
	for ; i < len(args) && !strings.HasPrefix(args[i].val, "-") && args[i].val != "(" && args[i].val != "!"; i++ {
		roots = append(roots, args[i])
	}
	types, depthCapped := "", false
	if len(roots) == 0 {
		roots = []word{{val: ".", static: true}}
	}
	for ; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-delete":
			deletes = true
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			if i+1 < len(args) && filepath.Base(args[i+1].val) == "rm" {
				deletes = true
			} else {
				return
			}
			for i++; i < len(args) && args[i].val != ";" && args[i].val != "+"; i++ {
			}
		case v == "-type" || v == "-xtype":
			if i+1 < len(args) {
				types += args[i+1].val
			}
			i++ // their value does not narrow to something named
		case v == "-mindepth":
			i++
		case v == "-maxdepth":
			// polcorp16: .git is at depth 1, so a walk of depth 1 or more
			// still reaches it (find . -maxdepth 1 ... -exec rm -rf {} +)
			if i+1 >= len(args) || !args[i+1].static || args[i+1].val == "0" || strings.Trim(args[i+1].val, "0123456789") != "" {
				return
			}
			depthCapped = true
			i++
		case (v == "!" || v == "-not") && i+2 < len(args) && findNameTests.has(args[i+1].val):
			// polcorp16: a negated name test spares what it names and
			// nothing else; sparing .git narrows the walk
			if !args[i+2].static || findPatternSparesGit(args[i+1].val, args[i+2].val) {
				return
			}
			i += 2
		case findWideOpts.has(v):
		default:
			return
		}
	}
	if !deletes || depthCapped && types != "" && !strings.Contains(types, "d") {
		return // find . -maxdepth 1 -type f -delete never reaches .git
	}
	for _, r := range roots {
		if x.wipesRoot(r) {
			x.add(Deny, RulePathWriteProtect, "find deletes the whole project ("+r.val+"), its .git with it")
			return
		}
	}
}
