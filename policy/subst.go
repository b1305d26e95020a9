package policy

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Read-only substitutions and loops. `git diff $(git merge-base main HEAD)`,
// `wc -l $(git ls-files '*.py')`, `cat $(go env GOROOT)/VERSION`,
// `make -j$(nproc)` and `for f in internal/*/; do go test ./$f; done` are
// everyday lines whose arguments are not static. When every substitution is
// a known producer whose output cannot turn into an option or a different
// kind of path, the word is judged with a stand-in for that output, and
// the outer program must be one that can take such output:
//
//   - value: nproc, uname, pwd, date (no format) — any program;
//   - rev: git merge-base / rev-parse / describe / symbolic-ref / rev-list,
//     git branch --show-current — git and echo/printf;
//   - toolchain: go env GOROOT / GOPATH / GOMODCACHE / … — programs that
//     only read;
//   - names: git ls-files, git diff --name-only, rg -l / --files, grep -l,
//     find without actions, ls, go list, gofmt -l (fmtlist.go) — programs
//     that only look at files' names or sizes (wc, ls, stat, go test …),
//     since the names may be anything the workspace holds;
//   - text: git config user.name / user.email — free text (the project's
//     .git/config may set it to anything, blanks and leading dashes
//     included), so only git may take it, only inside double quotes (one
//     word, never split) and only as the value of a --author=, --committer=
//     or --grep= word: whatever the text, the word stays that option, whose
//     value git only records or matches. It is not a secret (it is in every
//     commit); other git config keys (a remote's URL may hold a token,
//     credential.*) are not producers.
//
// A loop over static words binds its variable to each word in turn, and
// the body is judged once per word, as if each had been written out.

// substitution classes, least restricted first.
const (
	substNone byte = iota
	substValue
	substRev
	substToolchain
	substNames
	substText
)

// What a class's output is judged as.
const (
	standInValue = "4"
	standInRev   = "0123456789abcdef0123456789abcdef01234567"
	standInNames = "glob-match"
)

// readOnlyOuters only read what they are given.
var readOnlyOuters = wordSet{words: []string{"cat", "head", "tail", "wc", "ls", "stat", "file", "du", "grep", "egrep", "fgrep",
	"rg", "find", "diff", "echo", "printf", "test", "[", "basename", "dirname", "realpath", "readlink", "jq",
	"tree", "sort", "uniq", "cut", "md5sum", "sha256sum", "sha1sum", "nl", "less", "go", "git", "cargo", "tr"}}

// namesOuters take file names and print no file's contents.
var namesOuters = wordSet{words: []string{"wc", "ls", "stat", "file", "du", "md5sum", "sha256sum", "sha1sum", "echo", "printf",
	"basename", "dirname", "realpath", "test", "[", "go", "gofmt", "pytest", "mypy", "ruff", "black", "eslint",
	"prettier", "tsc", "jest", "vitest", "shellcheck", "golangci-lint", "staticcheck", "flake8", "pylint", "isort"}}

// projectToolSet holds every linter, formatter and test runner whose
// handler is projectTool.
var projectToolSet = lazy[map[string]bool]{build: func() map[string]bool {
	return setOf(append(append([]string(nil), projectTools...), moreProjectTools...)...)
}}

// goEnvVars are go env variables that name toolchain locations or facts.
var goEnvVars = wordSet{words: []string{"GOROOT", "GOPATH", "GOMODCACHE", "GOCACHE", "GOVERSION", "GOOS", "GOARCH", "GOBIN",
	"GOEXE", "GOHOSTOS", "GOHOSTARCH", "GOTOOLDIR", "GOMOD", "GOWORK", "CGO_ENABLED"}}

// substWord decodes w with its substitutions and bound loop variables
// replaced by stand-ins. ok is false when any part is not one it knows.
func (c *checkEnv) substWord(w *syntax.Word) (word, bool) {
	var b strings.Builder
	out := word{static: true}
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && (strings.HasPrefix(v, "~") || assignUserTilde(v)) { // tildeuser.go: dd if=~bob/x
				return word{}, false
			}
			if pat, br := unquotedLit(&b, v); pat {
				out.pattern = true
				out.brace = out.brace || br
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return word{}, false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					dquoteLit(&b, q.Value)
				default:
					v, class, pat, ok := c.substPart(q)
					if !ok {
						return word{}, false
					}
					b.WriteString(v)
					// "$d" of a loop over packages/*/ is one of the glob's
					// matches, not a directory named "*" (cdglob.go).
					out.pattern = out.pattern || pat
					out.subst = max(out.subst, class)
				}
			}
		default:
			if cs, isCS := p.(*syntax.CmdSubst); isCS {
				if _, text := heredocText(cs); text {
					// Unquoted, bash would split and glob the text.
					return word{}, false
				}
			}
			v, class, pat, ok := c.substPart(p)
			if !ok {
				return word{}, false
			}
			if class == substText {
				return word{}, false // unquoted free text splits into words
			}
			b.WriteString(v)
			out.pattern = out.pattern || pat
			out.subst = max(out.subst, class)
		}
	}
	out.val = b.String()
	if out.subst == substText && !textOptionWord(w) {
		return word{}, false
	}
	if strings.Contains(out.val, "..") && out.subst >= substToolchain && out.subst != substText {
		return word{}, false // climbing out of a stand-in
	}
	return out, true
}

// substPart gives the stand-in of one part: a bound loop variable or a
// producer's substitution.
func (c *checkEnv) substPart(p syntax.WordPart) (val string, class byte, pattern, ok bool) {
	switch p := p.(type) {
	case *syntax.ParamExp:
		if w, ok := c.substVars[p]; ok {
			if c.substEmpty {
				return "", w.subst, false, true // emptysubst.go: the producer failed
			}
			return w.val, w.subst, w.pattern, true // substassign.go
		}
		if p.Param != nil && (p.Exp != nil || p.Slice != nil) {
			// ${HOME:?}, ${HOME:-/}, ${HOME%/}: paramops.go
			if _, bound := c.bind[p.Param.Value]; !bound {
				if known := c.knownValue(p.Param.Value); known != "" {
					v, ok := c.knownParamOp(p, known)
					return v, substNone, false, ok
				}
			}
		}
		if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil {
			return "", 0, false, false
		}
		w, bound := c.bind[p.Param.Value]
		if !bound && p.Param.Value == "HOME" && c.home != "" {
			// $HOME is the home directory: rm -rf "$HOME" is rm -rf ~.
			return c.home, substNone, false, true
		}
		if !bound && c.ws != "" && slices.Contains(c.wsVars, p.Param.Value) {
			// the runner set it to the workspace (Context.WorkspaceVars)
			return c.ws, substNone, false, true
		}
		if !bound && p.Param.Value == "TMPDIR" && c.tmp != "" {
			// Inside the sandbox TMPDIR is its private /tmp (tmpdir.go);
			// a line that assigns it is denied (env.exec-variable).
			return c.tmp, substNone, false, true
		}
		if !bound {
			return "", 0, false, false
		}
		return w.val, substNone, w.pattern, true
	case *syntax.CmdSubst:
		class, standIn := c.producer(p)
		if class == substNone {
			return "", 0, false, false
		}
		if c.substEmpty {
			return "", class, false, true // emptysubst.go: the producer failed
		}
		return standIn, class, false, true
	}
	return "", 0, false, false
}

// producer classifies a $(…): one known producer with static arguments,
// optionally piped through filters.
func (c *checkEnv) producer(cs *syntax.CmdSubst) (byte, string) {
	if text, ok := heredocText(cs); ok {
		return substValue, text // heredoctext.go: the text itself
	}
	if len(cs.Stmts) != 1 {
		return substNone, ""
	}
	var calls []*syntax.CallExpr
	var walk func(st *syntax.Stmt) bool
	walk = func(st *syntax.Stmt) bool {
		if st.Negated || st.Background || st.Coprocess {
			return false
		}
		for _, r := range st.Redirs {
			if !(r.Op == syntax.RdrOut && r.N != nil && r.N.Value == "2" && r.Word.Lit() == "/dev/null") {
				return false
			}
		}
		switch x := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(x.Assigns) > 0 || len(x.Args) == 0 {
				return false
			}
			calls = append(calls, x)
			return true
		case *syntax.BinaryCmd:
			return x.Op == syntax.Pipe && walk(x.X) && walk(x.Y)
		}
		return false
	}
	if !walk(cs.Stmts[0]) {
		return substNone, ""
	}
	argvs := make([][]string, len(calls))
	for i, call := range calls {
		for _, a := range call.Args {
			w := decodeWord(a, c.home)
			if !w.static {
				return substNone, ""
			}
			argvs[i] = append(argvs[i], w.val)
		}
	}
	for _, f := range argvs[1:] {
		switch f[0] {
		case "grep", "head", "tail", "sort", "uniq", "cut", "tr", "xargs":
			if f[0] == "xargs" && len(f) > 1 && f[1] != "dirname" && f[1] != "basename" {
				return substNone, ""
			}
		default:
			return substNone, ""
		}
	}
	a := argvs[0]
	sub := ""
	if len(a) > 1 {
		sub = a[1]
	}
	switch a[0] {
	case "echo":
		// $(echo /) is "/": one plain word of text, written as the word
		// it becomes (only alone, unfiltered: $(echo x | tr x /) is not x).
		if len(argvs) == 1 && len(a) == 2 && constSafe(a[1]) && !strings.HasPrefix(a[1], "-") {
			return substValue, a[1]
		}
	case "nproc", "pwd", "whoami":
		return substValue, standInValue
	case "which":
		// $(which NAME) is the path of the program NAME on PATH, or
		// nothing: judged as that program (vettool.go).
		if len(argvs) == 1 && len(a) == 2 && programWord(a[1]) {
			return substValue, "/usr/bin/" + a[1]
		}
	case "mktemp":
		if v, ok := c.mktempName(a); ok && len(argvs) == 1 { // privatetemp.go
			return substValue, v
		}
	case "uname":
		return substValue, "Linux"
	case "date":
		for _, x := range a[1:] {
			if strings.HasPrefix(x, "+") && !dateToken(x[1:]) {
				return substNone, ""
			}
		}
		return substValue, standInValue
	case "git":
		switch sub {
		case "merge-base", "rev-parse", "describe", "symbolic-ref", "rev-list":
			for _, x := range a[2:] {
				if x == "--show-toplevel" || x == "--git-dir" || x == "--show-prefix" || x == "--git-common-dir" {
					return substValue, c.ws
				}
			}
			return substRev, standInRev
		case "config":
			if k := a[len(a)-1]; (len(a) == 3 || len(a) == 4 && a[2] == "--get") && (k == "user.name" || k == "user.email") {
				return substText, "A U Thor"
			}
		case "branch":
			if len(a) == 3 && a[2] == "--show-current" {
				return substRev, "main"
			}
		case "ls-files", "ls-tree":
			return substNames, standInNames
		case "diff":
			for _, x := range a[2:] {
				if x == "--name-only" || x == "--name-status" {
					return substNames, standInNames
				}
			}
		}
	case "go":
		if sub == "env" && len(a) == 3 && goEnvVars.has(a[2]) {
			return substToolchain, c.ws + "/.go-env-" + strings.ToLower(a[2])
		}
		if sub == "list" {
			return substNames, "./glob-match"
		}
	case "rg":
		if contains(a, "-l") || contains(a, "--files") || contains(a, "--files-with-matches") {
			return substNames, standInNames
		}
	case "grep":
		if contains(a, "-l") || contains(a, "-rl") || contains(a, "-lr") || contains(a, "--files-with-matches") {
			return substNames, standInNames
		}
	case "ls", "fd":
		return substNames, standInNames
	case "gofmt", "goimports", "gofumpt", "shfmt":
		if listOnlyFormat(a) { // fmtlist.go: test -z "$(gofmt -l .)"
			return substNames, standInNames
		}
	case "find":
		for _, x := range a[1:] {
			if strings.HasPrefix(x, "-exec") || strings.HasPrefix(x, "-ok") || x == "-delete" || strings.HasPrefix(x, "-fprint") || x == "-fls" {
				return substNone, ""
			}
		}
		return substNames, standInNames
	}
	return substNone, ""
}

// substAllowed reports whether prog may take a word of this class.
func substAllowed(prog string, class byte) bool {
	switch class {
	case substNone, substValue:
		return true
	case substRev:
		return prog == "git" || prog == "echo" || prog == "printf"
	case substToolchain:
		return readOnlyOuters.has(prog)
	case substText:
		return prog == "git"
	case substNames:
		// A linter or formatter of the project is judged on the names
		// as on any file it is given: `ormolu --mode inplace $(git
		// ls-files '*.hs')` formats workspace files, as prettier does.
		return namesOuters.has(prog) || projectToolSet.get()[prog]
	}
	return false
}

// forBindings returns the loop's words when its body may be judged once
// per word: static words that stay one word when expanded unquoted, a
// variable the body never assigns, and few enough of them.
func (c *checkEnv) forBindings(f *syntax.ForClause) (string, []word, bool) {
	it, ok := f.Loop.(*syntax.WordIter)
	// Nested bound loops multiply the work: two levels at most.
	if !ok || len(it.Items) == 0 || len(it.Items) > 8 || len(c.bind) >= 2 || c.budget < 1000 {
		return "", nil, false
	}
	name := it.Name.Value
	if f := envVarFinding(name, "", true); f.d > Allow {
		return "", nil, false
	}
	var items []word
	for _, w := range it.Items {
		d := decodeWord(w, c.home)
		if !d.static || d.brace {
			return "", nil, false
		}
		// An unquoted $NAME splits on blanks and globs: a word holding a
		// blank, or a glob character bash did not already expand, is
		// several words or a pattern in the body, not this one.
		if strings.ContainsAny(d.val, " \t\n") || !d.pattern && strings.ContainsAny(d.val, "*?[") {
			return "", nil, false
		}
		items = append(items, d)
	}
	assigned := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Assign:
			if x.Name != nil && x.Name.Value == name {
				assigned = true
			}
		case *syntax.CallExpr:
			if len(x.Args) > 0 {
				switch x.Args[0].Lit() {
				case "read", "mapfile", "readarray", "getopts", "printf", "unset", "declare", "typeset", "local", "export", "eval":
					assigned = true
				}
			}
		case *syntax.DeclClause, *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause:
			assigned = true
		}
		return !assigned
	})
	if assigned {
		return "", nil, false
	}
	return name, items, true
}

// textOptionWord reports a word that begins with a static --author=,
// --committer= or --grep=: free text after it stays that option's value.
func textOptionWord(w *syntax.Word) bool {
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	for _, p := range []string{"--author=", "--committer=", "--grep="} {
		if strings.HasPrefix(lit.Value, p) {
			return true
		}
	}
	return false
}
