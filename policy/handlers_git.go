package policy

import (
	"path"
	"strings"
)

// addGitHandlers registers git.
func addGitHandlers(handlers map[string]handler) {
	handlers["git"] = gitCmd
}

var gitReadCmds = wordSet{words: []string{"status", "diff", "log", "show", "shortlog", "blame", "annotate", "grep",
	"ls-files", "ls-tree", "rev-parse", "rev-list", "describe", "name-rev", "cat-file", "show-ref",
	"for-each-ref", "merge-base", "count-objects", "verify-commit", "verify-tag", "check-ignore",
	"check-attr", "check-mailmap", "var", "whatchanged", "range-diff", "cherry", "diff-tree",
	"diff-files", "diff-index", "show-branch", "version", "fsck", "get-tar-commit-id", "check-ref-format",
	"column", "stripspace", "interpret-trailers", "merge-tree", "fmt-merge-msg", "patch-id", "mailinfo",
	"unpack-file", "verify-pack", "show-index", "rerere"}}

var gitLocalCmds = wordSet{words: []string{"add", "commit", "restore", "switch", "checkout", "stash", "mv", "rm",
	"merge", "cherry-pick", "revert", "tag", "branch", "apply", "notes", "gc", "prune", "repack",
	"format-patch", "archive", "worktree", "bisect", "reflog", "reset", "clean", "init", "rebase",
	"pack-refs", "commit-graph", "multi-pack-index", "sparse-checkout", "mktag", "write-tree",
	"read-tree", "hash-object", "update-index", "replace", "bundle", "am", "mailsplit", "pack-objects",
	"index-pack", "unpack-objects", "prune-packed", "maintenance", "commit-tree", "mktree", "update-ref",
	"symbolic-ref", "checkout-index", "merge-file", "merge-index", "restore-index"}}

var gitNetCmds = wordSet{words: []string{"fetch", "pull", "push", "clone", "ls-remote", "remote", "submodule"}}

var gitDenyCmds = wordSet{words: []string{"send-email", "credential", "credential-store", "credential-cache", "upload-pack",
	"receive-pack", "upload-archive", "shell", "imap-send", "daemon", "http-backend", "fast-import",
	"credential-osxkeychain", "credential-libsecret", "credential-manager"}}

var gitExecCmds = wordSet{words: []string{"difftool", "mergetool", "filter-branch", "filter-repo", "instaweb", "hook",
	"web--browse", "p4", "svn", "cvsimport", "cvsexportcommit", "cvsserver", "quiltimport", "request-pull",
	"citool", "gui", "gitk", "help", "bugreport", "diagnose", "fast-export", "remote-ext", "remote-fd",
	"archimport", "sh-i18n--envsubst"}}

// benign -c keys: presentation and identity only.
func gitBenignConfig(kv string) bool {
	k, v, _ := strings.Cut(strings.ToLower(kv), "=")
	switch {
	case strings.HasPrefix(k, "color."), strings.HasPrefix(k, "advice."), k == "user.name", k == "user.email",
		k == "init.defaultbranch", k == "core.quotepath", k == "log.showsignature", k == "diff.noprefix",
		k == "column.ui", k == "log.decorate", k == "log.abbrevcommit", k == "diff.renames",
		k == "core.abbrev", k == "status.showuntrackedfiles", k == "merge.conflictstyle",
		k == "pull.rebase", k == "pull.ff", k == "core.autocrlf", k == "core.safecrlf", k == "i18n.logoutputencoding":
		return true
	case k == "commit.gpgsign" || k == "tag.gpgsign":
		return v == "false"
	}
	return false
}

// gitDangerousKey reports config keys whose value runs a program, loads
// other config, or changes where data goes.
func gitDangerousKey(k string) bool {
	k = strings.ToLower(k)
	for _, p := range []string{"core.", "alias.", "filter.", "credential", "url.", "include", "http.", "https.",
		"ssh.", "gpg.", "protocol.", "uploadpack.", "receive.", "transfer.", "pager.", "interactive.", "web.",
		"browser.", "man.", "submodule.", "safe.", "init.templatedir", "sequence.", "diff.", "merge.", "difftool.",
		"mergetool.", "remote.", "sendemail.", "imap.", "gc.", "maintenance.", "hook.", "fetch.", "uploadarchive.",
		"instaweb.", "trace2.", "feature.", "tar.", "fsmonitor", "status.", "commit.template", "blame.",
		"format.", "pack.", "index.", "worktree.", "am.", "rebase.", "notes.", "push."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return strings.HasSuffix(k, ".command") || strings.HasSuffix(k, ".textconv") || strings.HasSuffix(k, ".driver") ||
		strings.HasSuffix(k, ".cmd") || strings.HasSuffix(k, ".program") || strings.HasSuffix(k, ".path") ||
		strings.HasSuffix(k, ".helper") || strings.HasSuffix(k, ".editor")
}

func gitCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	i := 0
	// Global options.
	for i < len(rest) {
		a := rest[i].val
		switch {
		case a == "-c":
			if i+1 >= len(rest) {
				x.add(Ask, RuleGitOther, "git -c with no value")
				return
			}
			if !gitBenignConfig(rest[i+1].val) && !gitEditorConfig(rest[i+1].val) { // gitforms.go
				x.add(Deny, RuleGitConfigOpt, "git -c "+quoteShort(rest[i+1].val)+" can make git run a program")
			}
			i += 2
			continue
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			if !gitBenignConfig(a[2:]) && !gitEditorConfig(a[2:]) {
				x.add(Deny, RuleGitConfigOpt, "git -c can make git run a program")
			}
		case a == "--config-env" || strings.HasPrefix(a, "--config-env="):
			x.add(Deny, RuleGitConfigOpt, "git --config-env can make git run a program")
			if a == "--config-env" {
				i++
			}
		case strings.HasPrefix(a, "--exec-path="):
			x.add(Deny, RuleGitConfigOpt, "git --exec-path= makes git run programs from another directory")
		case a == "--exec-path" || a == "--html-path" || a == "--man-path" || a == "--info-path" || a == "--version" || a == "-v":
			x.add(Allow, RuleGitRead, "prints git's paths or version")
			return
		case a == "-C":
			if i+1 < len(rest) {
				x.read(rest[i+1])
				if ps := x.resolve(rest[i+1]); len(ps) > 0 {
					x.cw = &cwds{dirs: ps}
				} else {
					x.cw = &cwds{unknown: true}
				}
			}
			i += 2
			continue
		case a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--list-cmds" || a == "--attr-source":
			x.add(Ask, RuleGitOther, "git "+a+" points git at another repository or tree")
			i += 2
			continue
		case strings.HasPrefix(a, "--git-dir=") || strings.HasPrefix(a, "--work-tree=") || strings.HasPrefix(a, "--super-prefix=") || strings.HasPrefix(a, "--attr-source="):
			x.add(Ask, RuleGitOther, "git "+strings.SplitN(a, "=", 2)[0]+" points git at another repository or tree")
		case a == "-p" || a == "--paginate":
			x.add(Ask, RuleGitOther, "git --paginate runs a pager")
		case a == "--no-pager" || a == "-P" || a == "--no-replace-objects" || a == "--literal-pathspecs" ||
			a == "--glob-pathspecs" || a == "--noglob-pathspecs" || a == "--icase-pathspecs" ||
			a == "--no-optional-locks" || a == "--no-advice" || a == "--bare" || strings.HasPrefix(a, "--namespace=") || strings.HasPrefix(a, "--list-cmds="):
		case a == "-h" || a == "--help":
			x.add(Ask, RuleGitOther, "git help opens a pager or browser")
			return
		case strings.HasPrefix(a, "-"):
			x.add(Ask, RuleGitOther, "a git option the policy does not know: "+a)
		default:
			goto sub
		}
		i++
	}
	x.add(Allow, RuleGitRead, "prints git usage")
	return
sub:
	sub := rest[i].val
	sargs := rest[i+1:]
	gitMadeRepo(x, sub) // gitmaderepo.go
	// The working tree must be inside the workspace for the local forms.
	for _, a := range sargs {
		v := a.val
		switch {
		case v == "--ext-diff" || v == "--textconv":
			x.add(Deny, RuleGitExecOpt, "git "+v+" runs an external program")
		case v == "--help" || v == "-h" && sub != "branch":
			// -h is usage text, --help opens man.
			if v == "--help" {
				x.add(Ask, RuleGitOther, "git --help opens a pager or browser")
			}
		case v == "--no-index":
			for _, o := range sargs {
				if !strings.HasPrefix(o.val, "-") {
					x.read(o)
				}
			}
		}
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "../") {
			x.read(a)
		}
	}
	gitOutputs(x, sub, sargs)     // gitoutput.go
	gitOptionReads(x, sub, sargs) // gitoptreads.go
	switch {
	case gitDenyCmds.has(sub):
		x.add(Deny, RuleNetExfil, "git "+sub+" sends data or credentials out, or serves the repository")
	case gitExecCmds.has(sub):
		x.add(Ask, RuleGitOther, "git "+sub+" runs other programs or opens a browser")
	case sub == "config":
		gitConfig(x, sargs)
	case sub == "submodule" && gitSubmodule(x, sargs): // gitforms.go
	case gitNetCmds.has(sub):
		gitNetwork(x, sub, sargs)
	case gitReadCmds.has(sub):
		x.add(Allow, RuleGitRead, "git "+sub+" inspects the repository")
		gitSecretObjects(x, sargs)
		if sub == "grep" && hasOpt(sargs, "O", "--open-files-in-pager") {
			x.add(Deny, RuleGitExecOpt, "git grep -O runs a program on the matches")
		}
		if sub == "diff" || sub == "log" || sub == "show" {
			for _, a := range sargs {
				if strings.HasPrefix(a.val, "--output-directory") {
					x.add(Ask, RuleGitOther, "writes files")
				}
			}
		}
		if sub == "rerere" && len(sargs) > 0 && sargs[0].val != "status" && sargs[0].val != "diff" {
			x.add(Allow, RuleGitLocal, "git rerere")
		}
	case gitLocalCmds.has(sub):
		gitLocal(x, sub, sargs)
	default:
		x.add(Ask, RuleGitOther, "git "+sub+" is not a git command the policy knows (it may be an alias)")
	}
}

func gitConfig(x *cmdCtx, sargs []word) {
	write := false
	global := false
	var file *word
	var keys []string
	var ops []string
	for i := 0; i < len(sargs); i++ {
		a := sargs[i].val
		switch {
		case a == "--global" || a == "--system":
			global = true
		case a == "-f" || a == "--file" || a == "--blob":
			if i+1 < len(sargs) {
				file = &sargs[i+1]
				i++
			}
		case strings.HasPrefix(a, "--file="):
			file = &word{val: strings.TrimPrefix(a, "--file="), static: sargs[i].static}
		case a == "--unset" || a == "--unset-all" || a == "--add" || a == "--replace-all" ||
			a == "--rename-section" || a == "--remove-section" || a == "--edit" || a == "-e":
			write = true
		case a == "--type" || a == "--default" || a == "--comment":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) > 0 {
		switch ops[0] {
		case "get", "list", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool":
			ops = ops[1:]
			if len(ops) > 0 {
				keys = append(keys, ops[0])
			}
			ops = nil
		case "set", "unset", "rename-section", "remove-section", "edit":
			write = true
			ops = ops[1:]
		}
	}
	if len(ops) >= 2 {
		write = true
	}
	if len(ops) > 0 {
		keys = append(keys, ops[0])
	}
	if !write {
		if x.gitConfigReadsSecret(keys) { // gitconfigsecret.go
			return
		}
		x.add(Allow, RuleGitRead, "reads git configuration")
		if file != nil {
			x.read(*file)
		}
		return
	}
	if global {
		x.add(Deny, RuleGitConfigWrite, "writes the person's global git configuration")
		return
	}
	if file != nil {
		x.write(*file)
	}
	for _, k := range keys {
		if gitDangerousKey(k) {
			x.add(Deny, RuleGitConfigWrite, "git config "+k+" can make git run a program or trust other data")
			return
		}
	}
	if len(keys) == 0 {
		x.add(Deny, RuleGitConfigWrite, "a git config write the policy cannot follow")
		return
	}
	if x.gitPlainConfigWrite(keys, file, global) { // gitidentity.go
		x.add(Allow, RuleGitLocal, "sets "+strings.Join(keys, ", ")+" in the copy's repository: recorded or printed, never run")
		return
	}
	x.add(Ask, RuleGitOther, "writes the repository's git configuration")
}

func gitNetwork(x *cmdCtx, sub string, sargs []word) {
	if sub == "remote" {
		ops := operands(sargs, "t", nil)
		if len(ops) == 0 || ops[0].val == "get-url" {
			x.add(Allow, RuleGitRead, "lists remotes")
			return
		}
	}
	x.c.never = true
	if (sub == "fetch" || sub == "pull") && x.c.sandbox && !x.c.inPlace && gitFetchPlain(sargs) { // remotereads.go
		x.add(Allow, RuleRemoteRead, "git "+sub+" reads a configured remote through the sandbox and changes only the workspace")
	} else {
		x.add(Ask, RuleGitNetwork, "git "+sub+" talks to a remote")
	}
	gitPushTarget(x, sub, sargs) // gitpushto.go
	for i, a := range sargs {
		v := a.val
		switch {
		case v == "--upload-pack" || v == "--receive-pack" || v == "--exec" || strings.HasPrefix(v, "--upload-pack=") ||
			strings.HasPrefix(v, "--receive-pack=") || strings.HasPrefix(v, "--exec=") || (v == "-u" && sub != "push"):
			x.add(Deny, RuleGitExecOpt, "git "+sub+" "+v+" runs a program")
		case (sub == "clone" || sub == "submodule") && (v == "-c" || v == "--config" || strings.HasPrefix(v, "--config=") || v == "--template" || strings.HasPrefix(v, "--template=")):
			x.add(Deny, RuleGitConfigOpt, "git clone "+v+" sets configuration or hooks")
		case sub == "push" && (v == "-f" || v == "--force" || strings.HasPrefix(v, "--force-with-lease") || v == "--force-if-includes" ||
			v == "--mirror" || v == "-d" || v == "--delete" || v == "--prune" || (strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "fd"))):
			x.add(Deny, RuleGitPushForce, "git push "+v+" rewrites or deletes shared history")
		case sub == "push" && i > 0 && (strings.HasPrefix(v, "+") || strings.HasPrefix(v, ":")):
			x.add(Deny, RuleGitPushForce, "git push "+v+" force-updates or deletes a remote ref")
		case sub == "submodule" && v == "foreach":
			x.add(Ask, RuleGitOther, "git submodule foreach runs a command in every submodule")
			rest := sargs[i+1:]
			for len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
				rest = rest[1:]
			}
			sub := x.cw.copy()
			x.c.shell(strings.Join(vals(rest), " "), &sub, x.s.depth+1, "git submodule foreach")
		case strings.HasPrefix(v, "ext::") || strings.HasPrefix(v, "fd::"):
			x.add(Deny, RuleGitExecOpt, "the ext:: transport runs a program")
		}
		if sub == "push" && i == 0 && strings.HasPrefix(v, "+") {
			x.add(Deny, RuleGitPushForce, "git push "+v+" force-updates a remote ref")
		}
	}
	if sub == "clone" {
		ops := operands(sargs, "obcu", []string{"origin", "branch", "depth", "reference", "separate-git-dir", "shallow-since", "shallow-exclude", "filter", "server-option", "jobs", "bundle-uri", "ref-format", "revision"})
		if len(ops) >= 2 {
			x.write(ops[1])
		} else {
			x.writeStr("glob-match")
		}
	}
}

func gitLocal(x *cmdCtx, sub string, sargs []word) {
	x.add(Allow, RuleGitLocal, "git "+sub+" changes the workspace repository")
	x.readStr(".")
	switch sub {
	case "rebase":
		for _, a := range sargs {
			if a.val == "-x" || a.val == "--exec" || strings.HasPrefix(a.val, "--exec=") {
				x.add(Deny, RuleGitExecOpt, "git rebase --exec runs a command after each commit")
			}
			if (a.val == "-i" || a.val == "--interactive") && !x.gitTodoEditorOff() { // gitforms.go
				x.add(Ask, RuleGitOther, "an interactive rebase opens an editor")
			}
		}
	case "am":
		gitAm(x, sargs) // gitforms.go
	case "apply":
		if hasOpt(sargs, "", "--unsafe-paths", "--directory") {
			x.add(Ask, RuleGitOther, "git apply --unsafe-paths / --directory may write outside the tree")
		}
	case "reset", "clean", "checkout", "restore", "switch", "stash", "rm":
		x.gitDiscards(sub, sargs) // inplace.go
		if sub == "checkout" || sub == "restore" {
			x.gitPathspecWrites(sub, sargs) // pol7_trees.go: git checkout REF -- .cargo/config.toml
		}
	case "mv":
		moveCmd(x, append([]word{{val: "git-mv", static: true}}, sargs...)) // git mv x .cargo/config.toml is mv's write
	case "bisect":
		if len(sargs) > 0 && sargs[0].val == "run" {
			// off29: the command runs once per commit bisect checks out, the
			// project's own history; it is judged as itself (`git bisect run
			// go test ./parser/` is go test), as `git bisect good` and a
			// checkout of each commit already are. No command asks.
			if len(sargs) > 1 {
				x.add(Allow, RuleGitLocal, "git bisect run runs the command below at every step")
				x.nested(sargs[1:], "git bisect run")
			} else {
				x.add(Ask, RuleGitOther, "git bisect run with no command")
			}
		}
		if len(sargs) > 0 && (sargs[0].val == "visualize" || sargs[0].val == "view") {
			x.add(Ask, RuleGitOther, "opens gitk or a pager")
		}
	case "worktree":
		if len(sargs) > 0 && sargs[0].val == "add" {
			ops := operands(sargs[1:], "bB", []string{"reason"})
			if len(ops) > 0 {
				x.write(ops[0])
			}
		}
	case "archive":
		if hasOpt(sargs, "", "--remote", "--exec") {
			x.add(Deny, RuleGitExecOpt, "git archive --remote/--exec runs a program or talks to a remote")
		}
	case "format-patch":
	case "init":
		if hasOpt(sargs, "", "--template", "--separate-git-dir") {
			x.add(Deny, RuleGitConfigOpt, "git init --template copies hooks from a directory")
		}
		if ops := operands(sargs, "b", []string{"initial-branch", "object-format", "ref-format", "shared"}); len(ops) > 0 {
			x.write(ops[0])
		}
	case "maintenance":
		if len(sargs) > 0 && (sargs[0].val == "start" || sargs[0].val == "register" || sargs[0].val == "unregister" || sargs[0].val == "stop") {
			x.add(Deny, RulePersist, "git maintenance start schedules jobs outside the run")
		}
	case "update-ref", "symbolic-ref", "replace", "update-index", "commit-tree", "mktree", "read-tree",
		"checkout-index", "hash-object", "mktag", "merge-index", "bundle":
		// `git update-ref -d refs/heads/X` keeps asking in the copy and in
		// place although `git branch -D X` is allowed in the copy (off29,
		// the lead's question): they are not the same deletion. branch -D
		// refuses the branch HEAD is on and any name that is not a branch;
		// update-ref -d deletes whatever ref it is given (the checked-out
		// branch, leaving HEAD unborn and every file "new"; a tag; the
		// stash; refs/remotes/*) with no check, and is never how a person
		// cleans up a branch. In place branch -D of an unmerged branch asks
		// too (inplace.go), so in place both ask. TestBranchRefDeletions.
		x.add(Ask, RuleGitOther, "git "+sub+" is plumbing that rewrites repository state")
	case "reflog":
		if len(sargs) > 0 && (sargs[0].val == "expire" || sargs[0].val == "delete" || sargs[0].val == "drop") {
			x.add(Ask, RuleGitDestructive, "discards reflog entries")
		} else {
			x.relabel(RuleGitLocal, RuleGitRead, "shows the reflog")
		}
	case "branch", "tag":
		if sub == "branch" && (hasOpt(sargs, "D", "--force") && hasOpt(sargs, "dD", "--delete") || hasOpt(sargs, "D")) {
			// A branch deleted unmerged loses its commits to the reflog
			// only: workspace work in a copy, the person's history in place.
			x.discardsWork("git branch -D deletes an unmerged branch", RuleGitDestructive, true)
		}
		if hasOpt(sargs, "", "--edit-description") {
			x.add(Ask, RuleGitOther, "opens an editor")
		}
		if ops := operands(sargs, "mMcCdDu", nil); len(ops) == 0 && !hasOpt(sargs, "dDmMcCu", "--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream") {
			x.relabel(RuleGitLocal, RuleGitRead, "lists "+sub+"es")
		}
	}
}

// relabel renames the current allow from one rule to another; it never
// changes the decision.
func (x *cmdCtx) relabel(from, to, reason string) {
	if x.f.rule == from {
		x.f.rule, x.f.reason = to, reason
	}
}

// gitSecretObjects judges what a reading git command prints from files
// that usually hold secrets: "REV:path" and ":path" objects (git show
// HEAD:.env) and pathspecs (git log -p -- .env, git grep KEY -- .env*).
func gitSecretObjects(x *cmdCtx, sargs []word) {
	dashes := false
	for _, a := range sargs {
		v := a.val
		if v == "--" && !dashes {
			dashes = true
			continue
		}
		if !a.static || (!dashes && strings.HasPrefix(v, "-")) {
			continue
		}
		name := v
		if rev, p, ok := strings.Cut(v, ":"); ok && !dashes && !strings.HasPrefix(v, ":(") {
			if rev == "" && strings.HasPrefix(p, "/") {
				continue // :/text names a commit by its message
			}
			name = p
			if len(name) > 2 && name[0] >= '0' && name[0] <= '3' && name[1] == ':' {
				name = name[2:] // :0:path names a stage of the index
			}
		}
		name = strings.TrimPrefix(strings.TrimRight(name, "/"), "./")
		if i := strings.IndexByte(name, ')'); strings.HasPrefix(name, ":(") && i > 0 {
			name = name[i+1:] // a pathspec with magic, :(glob)x
		}
		base := path.Base(name)
		if name == "" || !(secretName(base) || hasGlobMeta(base) && aimedAtSecrets(base)) {
			continue
		}
		x.add(Ask, RulePathReadSecret, "git prints "+quoteShort(v)+", a file that usually holds secrets")
		x.c.never = true
	}
}
