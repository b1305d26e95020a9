package policy

import "strings"

// Git forms that only look like their risky relatives (issue 32, polcorp7
// class 1): an interactive rebase whose todo editor cannot open, git am of
// a patch (a commit made from a file), and the read-only submodule forms.

// noopEditor reports an editor value that opens nothing and leaves the
// file as it is: `true`, `:` and their absolute spellings.
func noopEditor(v string) bool {
	switch strings.TrimSpace(v) {
	case "true", ":", "/bin/true", "/usr/bin/true":
		return true
	}
	return false
}

// editorVars are the variables git and other programs take an editor from;
// a no-op value turns the editor off.
var editorVars = wordSet{words: []string{"GIT_SEQUENCE_EDITOR", "GIT_EDITOR", "EDITOR", "VISUAL"}}

// gitEditorConfig reports a `git -c` setting that turns git's editor off:
// sequence.editor or core.editor set to a no-op.
func gitEditorConfig(kv string) bool {
	k, v, ok := strings.Cut(kv, "=")
	k = strings.ToLower(k)
	return ok && (k == "sequence.editor" || k == "core.editor") && noopEditor(v)
}

// gitTodoEditorOff reports that an interactive rebase cannot open its todo
// editor: git reads the todo editor from GIT_SEQUENCE_EDITOR first, then
// sequence.editor (a -c beats every config file), so either set to a no-op
// keeps the todo list as generated (--autosquash's order); with stdin from
// /dev/null a terminal editor reads end of file at once. Any of these makes
// `git rebase -i` the plain rebase it then is.
func (x *cmdCtx) gitTodoEditorOff() bool {
	if x.stdinNull {
		return true
	}
	if x.part == nil {
		return false
	}
	for _, a := range x.part.Assigns {
		if k, v, ok := strings.Cut(a, "="); ok && k == "GIT_SEQUENCE_EDITOR" && noopEditor(v) {
			return true
		}
	}
	argv := x.part.Argv
	for i := 1; i+1 < len(argv) && argv[i] != "rebase"; i++ {
		if argv[i] == "-c" && strings.HasPrefix(strings.ToLower(argv[i+1]), "sequence.editor=") && gitEditorConfig(argv[i+1]) {
			return true
		}
	}
	return false
}

// gitAm judges git am: applying a patch file is making a commit from it,
// judged as git commit is (allowed in the copy and in place alike); the
// patch files are read. --abort and --skip put the tree back as it was
// before the patch, discarding what the failed patch left, which in place
// is the person's work. --directory and --unsafe-paths write where the
// patch says, as git apply's do.
func gitAm(x *cmdCtx, sargs []word) {
	x.relabel(RuleGitLocal, RuleGitLocal, "git am makes commits from patch files, as git commit does")
	if hasOpt(sargs, "", "--abort", "--skip") {
		x.discardsWork("git am --abort/--skip puts back the tree of before the patch", RuleGitDestructive, true)
	}
	if hasOpt(sargs, "", "--unsafe-paths", "--directory") {
		x.add(Ask, RuleGitOther, "git am --unsafe-paths / --directory may write outside the tree")
	}
	for _, a := range sargs {
		if strings.HasPrefix(a.val, "--directory=") {
			x.add(Ask, RuleGitOther, "git am --directory may write outside the tree")
		}
	}
	for _, w := range operands(sargs, "pC", []string{"patch-format", "whitespace", "exclude", "include", "directory", "resolvemsg", "quoted-cr", "empty", "gpg-sign"}) {
		x.read(w)
	}
}

// gitSubmoduleRead reports the submodule forms that only print: status,
// summary (without --files it compares recorded commits) and plain
// listing. foreach is judged by what it runs (gitNetwork).
func gitSubmoduleRead(sargs []word) bool {
	for _, a := range sargs {
		v := a.val
		if strings.HasPrefix(v, "-") {
			switch v {
			case "--quiet", "-q", "--cached", "--recursive", "--files", "-n":
				continue
			}
			return false
		}
		return v == "status" || v == "summary"
	}
	return len(sargs) == 0 // git submodule alone is git submodule status
}

// gitSubmodule judges the submodule forms that talk to no remote and
// reports whether it did: status and summary print; foreach runs its
// command in every submodule (all inside the workspace), so the command
// decides, as it would written out. Dynamic text, or anything else
// (update, add, sync, init) is left to gitNetwork.
func gitSubmodule(x *cmdCtx, sargs []word) bool {
	if gitSubmoduleRead(sargs) {
		x.add(Allow, RuleGitRead, "git submodule "+strings.TrimSpace(strings.Join(vals(operands(sargs, "", nil)), " "))+" prints the submodules' state")
		return true
	}
	i := 0
	for i < len(sargs) && (sargs[i].val == "--quiet" || sargs[i].val == "-q") {
		i++
	}
	if i >= len(sargs) || sargs[i].val != "foreach" {
		return false
	}
	rest := sargs[i+1:]
	for len(rest) > 0 && (rest[0].val == "--recursive" || rest[0].val == "-q" || rest[0].val == "--quiet") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return false
	}
	for _, w := range rest {
		if !w.static {
			return false
		}
	}
	x.add(Allow, RuleGitRead, "git submodule foreach runs its command in every submodule")
	cw := x.cw.copy()
	x.c.shell(strings.Join(vals(rest), " "), &cw, x.s.depth+1, "git submodule foreach")
	return true
}
