package policy

import (
	"os"
	"strings"
)

// Destruction inside the tree, judged by where the tree is. In a
// disposable copy (sentinel run) deleting or discarding files is workspace
// work: the person's own files are untouched and the review shows every
// deletion before anything lands. In place (sentinel exec, the shims,
// sentinel mcp) the files are the person's, and deleting uncommitted work
// cannot be undone unless a checkpoint covers the place: there it asks.
// Databases are outside the copy in both: dropping or flushing one asks.

// Rule ids of this file.
const (
	RuleInPlaceUncommitted = "inplace.uncommitted"
	RuleDatabaseDrop       = "build.database-drop"
)

// discardsWork judges an operation that deletes or discards files of the
// tree. copyOK says it is workspace work in a disposable copy; when it is
// not, it asks with rule and what as in a copy.
func (x *cmdCtx) discardsWork(what, rule string, copyOK bool) {
	switch {
	case x.c.inPlace && !x.c.checkpointed:
		x.add(Ask, RuleInPlaceUncommitted, what+": in place these are the person's own files and no checkpoint covers them")
	case !copyOK:
		x.add(Ask, rule, what)
	}
}

// removeInTree judges rm of workspace files (after removeCmd's own
// checks). recursive is -r/-R; generated says every operand is a build
// output or cache directory, which a build makes again.
func (x *cmdCtx) removeInTree(ops []word, recursive, generated bool) {
	if generated || x.allScratch(ops) { // privatetemp.go: rm -rf /tmp/scratch
		return
	}
	if !recursive {
		if x.c.inPlace && !x.c.checkpointed {
			x.discardsWork("deletes files", RuleDestructive, true)
		}
		return
	}
	x.discardsWork("recursive deletion", RuleDestructive, x.namedSubdirs(ops))
}

// namedSubdirs reports whether every operand names one static path below a
// top-level directory of the workspace (tests/x, src/old): deleting the
// tree, a glob of it or a top-level directory (src) is most of the project
// and asks even in a copy.
func (x *cmdCtx) namedSubdirs(ops []word) bool {
	if len(ops) == 0 || x.c.ws == "" {
		return false
	}
	for _, w := range ops {
		if !w.static || w.pattern || w.brace {
			return false
		}
		ps := x.resolve(w)
		if ps == nil {
			return false
		}
		for _, p := range ps {
			r := rel(p, x.c.ws)
			if !within(p, x.c.ws) || r == "" || !strings.Contains(r, "/") {
				return false
			}
		}
	}
	return true
}

// gitDiscards judges the git subcommands that throw away changes in the
// tree; called from the git handler with the subcommand's arguments.
func (x *cmdCtx) gitDiscards(sub string, sargs []word) {
	switch sub {
	case "reset":
		if hasOpt(sargs, "", "--hard", "--merge", "--keep") {
			// The copy's HEAD is the snapshot: the person's HEAD plus
			// their uncommitted changes. To HEAD it discards only the
			// coder's changes; to another commit (HEAD~3, origin/main)
			// the patch computed against the snapshot reverts the
			// person's own work, which asks even in a copy.
			toHead := true
			for _, w := range operands(sargs, "", nil) {
				if w.val != "HEAD" && w.val != "@" {
					toHead = false
				}
			}
			x.discardsWork("git reset --hard discards work", RuleGitDestructive, toHead)
		}
	case "clean":
		x.gitCleanOutside(sargs) // gitclean.go: git clean -fdx ~
		if !hasOpt(sargs, "n", "--dry-run") {
			// Untracked files of a copy are the coder's own output: the
			// person's uncommitted files are in the snapshot commit,
			// tracked, and git clean leaves them. -x also deletes
			// ignored files (installed dependencies, local settings),
			// which the review never shows: that still asks
			// (testdata/adversarial.txt).
			x.discardsWork("git clean deletes untracked files", RuleGitDestructive, !gitCleanIgnored(sargs))
		}
	case "stash":
		if len(sargs) > 0 && (sargs[0].val == "clear" || sargs[0].val == "drop") {
			x.discardsWork("git stash "+sargs[0].val+" discards stashed work", RuleGitDestructive, true)
		}
	case "checkout", "switch":
		if hasOpt(sargs, "f", "--force", "--discard-changes") || sub == "checkout" && x.checkoutPaths(sargs) {
			x.discardsWork("git "+sub+" overwrites uncommitted changes", RuleGitDestructive, true)
		}
	case "restore":
		staged := hasOpt(sargs, "S", "--staged")
		worktree := hasOpt(sargs, "W", "--worktree")
		if !staged || worktree {
			x.discardsWork("git restore overwrites uncommitted changes", RuleGitDestructive, true)
		}
	case "rm":
		if hasOpt(sargs, "rf", "--force") && !hasOpt(sargs, "", "--cached") {
			x.discardsWork("git rm deletes files of the tree", RuleGitDestructive, true)
		}
	}
}

// checkoutPaths reports whether git checkout's arguments name paths (which
// it overwrites from the index or a commit) rather than only a branch.
func (x *cmdCtx) checkoutPaths(sargs []word) bool {
	for _, w := range sargs {
		if w.val == "--" || w.val == "." || w.val == "-p" || w.val == "--patch" || strings.HasPrefix(w.val, "--pathspec-from-file") {
			return true
		}
	}
	ops := operands(sargs, "bB", []string{"orphan", "conflict"})
	for _, w := range ops {
		// A branch name is not a path of the tree; a file of the tree is.
		for _, p := range x.resolve(w) {
			if _, err := os.Lstat(p); err == nil && within(p, x.c.ws) && p != x.c.ws+"/.git" {
				return true
			}
		}
	}
	return false
}

// databaseDrops are project commands that drop, flush or rebuild a
// database: the database lives outside the workspace (a server, or a file
// the copy does not hold), so nothing the review shows brings it back.
var databaseDrops = lazy[map[string][][]string]{build: func() map[string][][]string {
	return map[string][][]string{
		"rails":     {{"db:drop"}, {"db:reset"}, {"db:purge"}, {"db:schema:load"}, {"db:setup"}, {"db:truncate_all"}, {"db:seed:replant"}},
		"rake":      {{"db:drop"}, {"db:reset"}, {"db:purge"}, {"db:schema:load"}, {"db:setup"}, {"db:truncate_all"}, {"db:seed:replant"}},
		"manage":    {{"flush"}, {"reset_db"}, {"sqlflush"}, {"migrate", "zero"}},
		"artisan":   {{"migrate:fresh"}, {"migrate:reset"}, {"migrate:refresh"}, {"db:wipe"}},
		"mix":       {{"ecto.drop"}, {"ecto.reset"}, {"ecto.rollback", "--all"}},
		"prisma":    {{"migrate", "reset"}, {"db", "push", "--force-reset"}},
		"dotnet":    {{"ef", "database", "drop"}},
		"sequelize": {{"db:drop"}, {"db:migrate:undo:all"}},
		"knex":      {{"migrate:rollback", "--all"}},
		"alembic":   {{"downgrade", "base"}},
		"dropdb":    {{}},
	}
}}

// dropsDatabase reports whether argv (a Part's, wrappers stripped) drops,
// flushes or resets a database.
func dropsDatabase(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	prog := baseName(argv[0])
	args := argv[1:]
	switch {
	case (prog == "uv" || prog == "poetry" || prog == "pdm" || prog == "pipenv") && len(args) > 1 && args[0] == "run":
		return dropsDatabase(args[1:])
	case prog == "bundle" && len(args) > 1 && args[0] == "exec":
		return dropsDatabase(args[1:])
	case (prog == "npx" || prog == "pnpx" || prog == "bunx") && len(args) > 0, prog == "pnpm" && len(args) > 1 && (args[0] == "exec" || args[0] == "dlx"):
		if prog == "pnpm" {
			args = args[1:]
		}
		return dropsDatabase(args)
	case isPython(prog) || prog == "php":
		// python manage.py flush, php artisan migrate:fresh
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 {
			return false
		}
		script := strings.TrimSuffix(baseName(args[0]), ".py")
		if script != "manage" && script != "artisan" {
			return false
		}
		prog, args = script, args[1:]
	case prog == "manage.py":
		prog = "manage"
	}
	for _, want := range databaseDrops.get()[prog] {
		if len(want) == 0 {
			return true
		}
		if subseqStrings(args, want) {
			return true
		}
	}
	return false
}

// subseqStrings reports whether want's words appear in args in order.
func subseqStrings(args, want []string) bool {
	j := 0
	for _, a := range args {
		if j < len(want) && a == want[j] {
			j++
		}
	}
	return j == len(want)
}

// baseName is the last element of a program's path (bin/rails is rails).
func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func isPython(p string) bool {
	return p == "python" || p == "python3" || strings.HasPrefix(p, "python3.")
}

// databasesOutsideTheCopy raises every part of the line that drops a
// database to ask, whatever judged its program (a project script runs
// inside the sandbox, but the database it drops is not in it).
func (c *checkEnv) databasesOutsideTheCopy() {
	for i := range c.parts {
		p := &c.parts[i]
		if p.Decision <= Ask && dropsDatabase(p.Argv) && !c.sandboxSchemaLoad(*p) && !c.resetsTestDatabase(*p) { // dbschema.go, testdb.go
			p.Decision, p.Rule, p.Reason = Ask, RuleDatabaseDrop, "drops, flushes or resets a database, which lives outside the workspace: no review or checkpoint brings it back"
		}
	}
}
