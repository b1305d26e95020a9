package policy

import (
	"errors"
	"reflect"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds re-parsing of nested payloads (sh -c 'sh -c …').
const maxDepth = 8

var parserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}}

// cwds is the set of directories a command may run in. cd adds to the set
// (a failed cd leaves the old directory), so judging every member is
// conservative. unknown means a relative path cannot be resolved.
type cwds struct {
	dirs    []string
	unknown bool
}

func (w cwds) copy() cwds {
	return cwds{dirs: append([]string(nil), w.dirs...), unknown: w.unknown}
}

func (w *cwds) add(d string) {
	for _, x := range w.dirs {
		if x == d {
			return
		}
	}
	if len(w.dirs) >= 8 {
		w.unknown = true
		return
	}
	w.dirs = append(w.dirs, d)
}

// src is the text being walked, for slicing each part's source.
type src struct {
	text   string
	depth  int
	via    string
	braced map[*syntax.Word]bool // words a brace expansion made (braces.go)
	inert  inertSet              // names whose every value is a number (inertvalues.go)
}

// shell parses text and judges every simple command in it.
func (c *checkEnv) shell(text string, cw *cwds, depth int, via string) {
	if depth > maxDepth {
		c.addPart(Part{Text: text, Via: via, Decision: Ask, Rule: RuleShellTooDeep,
			Reason: "commands nested more than 8 levels deep"})
		return
	}
	if strings.IndexByte(text, 0) >= 0 {
		c.addPart(Part{Text: text, Via: via, Decision: Ask, Rule: RuleShellParse,
			Reason: "the text holds a NUL byte"})
		return
	}
	f, braced, err := c.reading.parsed(text) // reading.go: the caller's parse of the line, when it gave one
	if td := (*TooDeepError)(nil); errors.As(err, &td) {
		c.addPart(Part{Text: text, Via: via, Decision: Ask, Rule: RuleShellTooDeep, Reason: td.Error()})
		return
	}
	if err != nil {
		c.addPart(Part{Text: text, Via: via, Decision: Ask, Rule: RuleShellParse,
			Reason: "cannot be parsed as bash: " + err.Error()})
		return
	}
	s := &src{text: text, depth: depth, via: via, braced: braced}
	if strings.Contains(text, "((") {
		s.inert = inertNames(f) // inertvalues.go: i=0; echo $((i+1))
	}
	pipes := c.screenEnvListings(text, f) // envscreen.go
	if strings.Contains(text, "$(") || strings.Contains(text, "`") {
		c.bindSubstAssigns(f) // substassign.go: B=$(git branch --show-current) && git log origin/$B
	}
	if strings.Contains(text, "xargs") {
		c.feedXargs(f) // substassign.go: echo ./internal/... | xargs go vet
		if !c.sandbox {
			c.markListedXargs(f) // xargslisted_off.go: git ls-files '*.go' | xargs gofmt -l
		}
	}
	var cw0 cwds
	bound := bindingsLikely(text)
	if bound {
		cw0 = cw.copy() // bindprop.go judges the line again from where it starts
	}
	var cwF cwds
	fns := via != "function" && funcsLikely(text) // one level: a body's own calls are judged where they stand
	if fns {
		cwF = cw.copy() // funcprop.go judges the line again from where it starts
	}
	cwAfter := make([]cwds, len(f.Stmts)) // the working directory after each statement (constprop.go)
	for i, st := range f.Stmts {
		c.stmt(s, st, cw)
		c.step++ // as stmts: the next statement runs whether this one failed or not
		cwAfter[i] = cw.copy()
	}
	c.judgeConstants(s, f, cwAfter) // constprop.go: x=rm; $x -rf /
	c.judgeEvalSinks(s, f)          // evalsink.go: x='a[$(id)]'; ls $((x))
	c.judgeExtGlobs(s, f, cw)       // extglobsubst.go: [[ a == @(a|$(cat /etc/shadow)) ]]
	c.judgeDumps(s, f, pipes)       // dumpenv.go: the environment never reaches a file or the network
	c.judgeXargsFeeds(s, f, cw)     // xargsfeed.go: echo ~ | xargs rm -rf runs rm -rf ~
	c.judgeMakefileFeeds(s, f, cw)  // makefeed.go: printf 'x:\n\trm -rf ~\n' | make -f -
	c.judgeScriptFeeds(s, f, cw)    // scriptfeed.go: awk -f /dev/stdin <<< 'BEGIN{system("rm -rf ~")}'
	c.judgeCurlConfigs(s, f, cw)    // curlconfig.go: curl -K <(printf 'upload-file = .env…')
	c.judgeSecretWrites(s, f)       // secretwrite.go: printf "$API_KEY" > k.txt
	c.judgeSecretFileSends(s, f)    // secretfilesinks.go: curl "…?k=$(cat .env)", cat .env | nc …
	if bound {
		c.judgeBindings(s, f, cw0) // bindprop.go: printf -v c rm; $c -rf ~, set -- rm -rf ~; "$@"
	}
	if fns {
		c.judgeFunctions(s, f, cwF) // funcprop.go: f() { rm "$@"; }; f -rf ~/.ssh
	}
}

func (c *checkEnv) addPart(p Part) {
	c.budget--
	if c.budget == 0 {
		p = Part{Text: p.Text, Decision: Ask, Rule: RuleShellTooDeep, Reason: "too many commands to judge"}
	} else if c.budget < 0 {
		return
	}
	c.parts = append(c.parts, p)
}

func (s *src) slice(n syntax.Node) string {
	a, b := n.Pos().Offset(), n.End().Offset()
	if int(b) > len(s.text) || a > b {
		return ""
	}
	return s.text[a:b]
}

func (c *checkEnv) stmts(s *src, list []*syntax.Stmt, cw *cwds) {
	for _, st := range list {
		c.stmt(s, st, cw)
		c.step++ // the next statement runs whether this one failed or not
	}
}

func (c *checkEnv) stmt(s *src, st *syntax.Stmt, cw *cwds) {
	if st == nil {
		return
	}
	// Redirections belong to the simple command when there is one.
	redirs := c.redirects(s, st.Redirs, cw)
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall && len(st.Redirs) > 0 {
		p := Part{Text: s.slice(st), Via: "redirect"}
		c.judgeRedirects(&p, redirs, cw, st.Cmd == nil)
		c.addPart(p)
	}
	switch x := st.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		c.call(s, st, call, cw, redirs)
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			a, b := cw.copy(), cw.copy()
			c.stmt(s, x.X, &a)
			c.step++ // the stages run together: none waits for another to succeed
			c.stmt(s, x.Y, &b)
		} else if l := andList(st); l != nil && hasCd(l) {
			c.andAfterCd(s, l, cw) // cdand.go
		} else {
			c.stmt(s, x.X, cw)
			if x.Op != syntax.AndStmt {
				c.step++ // || runs the right side exactly when the left failed
			}
			c.stmt(s, x.Y, cw)
		}
	case *syntax.Subshell:
		sub := cw.copy()
		c.stmts(s, x.Stmts, &sub)
	case *syntax.Block:
		c.stmts(s, x.Stmts, cw)
	case *syntax.IfClause:
		for cl := x; cl != nil; cl = cl.Else {
			c.stmts(s, cl.Cond, cw)
			c.stmts(s, cl.Then, cw)
		}
	case *syntax.WhileClause:
		if changesDir(x) {
			cw.unknown = true
		}
		c.stmts(s, x.Cond, cw)
		c.stmts(s, x.Do, cw)
	case *syntax.ForClause:
		if changesDir(x) {
			cw.unknown = true
		}
		if name, items, ok := c.forBindings(x); ok {
			// Judge the body once per word, as if each were written out.
			for _, w := range x.Loop.(*syntax.WordIter).Items {
				c.scan(s, w, cw)
			}
			old, had := c.bind[name]
			if c.bind == nil {
				c.bind = map[string]word{}
			}
			for _, it := range items {
				if c.budget <= 0 {
					break
				}
				c.bind[name] = it
				c.stmts(s, x.Do, cw)
			}
			if had {
				c.bind[name] = old
			} else {
				delete(c.bind, name)
			}
			return
		}
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			if f := envVarFinding(l.Name.Value, "", true); f.d > Allow {
				c.addPart(Part{Text: s.slice(x), Argv: []string{"for", l.Name.Value}, Via: "for",
					Decision: f.d, Rule: f.rule, Reason: "the loop assigns " + l.Name.Value + ": " + f.reason})
			}
			for _, w := range l.Items {
				c.scan(s, w, cw)
			}
		case *syntax.CStyleLoop:
			if !s.inert.arithm(l.Init) || !s.inert.arithm(l.Cond) || !s.inert.arithm(l.Post) { // inertvalues.go
				c.addPart(Part{Text: s.slice(l), Via: "arith", Dynamic: true, Decision: Ask, Rule: RuleShellArith,
					Reason: "arithmetic evaluation can run code through array subscripts"})
			}
			c.scan(s, l, cw)
		}
		c.stmts(s, x.Do, cw)
	case *syntax.CaseClause:
		if c.caseOracle(x.Word) {
			c.addPart(Part{Text: s.slice(x.Word), Via: "case", Dynamic: true, Decision: Ask, Rule: RuleShellDynamicArg,
				Reason: "case matches a variable's value against patterns: it can test a secret a piece at a time"})
		}
		c.scan(s, x.Word, cw)
		for _, it := range x.Items {
			for _, w := range it.Patterns {
				c.scan(s, w, cw)
			}
			c.stmts(s, it.Stmts, cw)
		}
	case *syntax.FuncDecl:
		if forkBomb(x) {
			c.addPart(Part{Text: s.slice(x), Via: "function", Decision: Deny, Rule: RuleSystem,
				Reason: "a function that starts itself in the background without end (a fork bomb)"})
		}
		c.addPart(Part{Text: s.slice(x), Via: "function", Decision: Ask, Rule: RuleShellFunction,
			Reason: "defines a function, which changes what a later word runs"})
		body := cwds{unknown: true}
		c.stmt(s, x.Body, &body)
	case *syntax.ArithmCmd:
		if !s.inert.arithm(x.X) { // inertvalues.go: (( i++ )) after i=0
			c.addPart(Part{Text: s.slice(x), Via: "arith", Dynamic: true, Decision: Ask, Rule: RuleShellArith,
				Reason: "arithmetic evaluation can run code through array subscripts"})
		}
		c.scan(s, x, cw)
	case *syntax.LetClause:
		c.addPart(Part{Text: s.slice(x), Via: "arith", Dynamic: true, Decision: Ask, Rule: RuleShellArith,
			Reason: "let evaluates arithmetic, which can run code through array subscripts"})
		c.scan(s, x, cw)
	case *syntax.TestClause:
		c.testClause(s, x, cw)
	case *syntax.DeclClause:
		c.declClause(s, x, cw)
	case *syntax.TimeClause:
		c.stmt(s, x.Stmt, cw)
	case *syntax.CoprocClause:
		c.addPart(Part{Text: s.slice(x), Via: "coproc", Decision: Ask, Rule: RuleShellOption,
			Reason: "a coprocess runs in the background with pipes to this shell"})
		sub := cw.copy()
		c.stmt(s, x.Stmt, &sub)
	default:
		c.addPart(Part{Text: s.slice(st), Decision: Ask, Rule: RuleShellParse,
			Reason: "a shell construct the policy does not judge"})
	}
}

// changesDir reports whether a loop body may change directory, in which
// case no directory is known inside or after it.
func changesDir(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*syntax.Subshell); ok {
			return false // ( cd x && … ) changes only the subshell's directory (cdglob.go)
		}
		if call, ok := n.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			switch call.Args[0].Lit() {
			case "cd", "pushd", "popd":
				found = true
			}
			if call.Args[0].Lit() == "" {
				found = true // a dynamic name might be cd
			}
		}
		return true
	})
	return found
}

// scan walks a node for command and process substitutions and judges the
// commands inside them (each in a subshell).
func (c *checkEnv) scan(s *src, n syntax.Node, cw *cwds) {
	if n == nil {
		return
	}
	if rv := reflect.ValueOf(n); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return // a typed nil, e.g. the missing value of "A="
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			sub := cw.copy()
			c.stmts(s, x.Stmts, &sub)
			return false
		case *syntax.ProcSubst:
			sub := cw.copy()
			c.stmts(s, x.Stmts, &sub)
			return false
		}
		return true
	})
}

func (c *checkEnv) testClause(s *src, x *syntax.TestClause, cw *cwds) {
	p := Part{Text: s.slice(x), Via: "test", Decision: Allow, Rule: RuleShellTest,
		Reason: "a test of static words only reads"}
	syntax.Walk(x.X, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			if !decodeWord(w, c.home).static {
				p.Dynamic = true
			}
			return false
		}
		return true
	})
	if p.Dynamic {
		p.Decision, p.Rule = Ask, RuleShellArith
		p.Reason = "a [[ ]] test of expanded values can evaluate arithmetic, which can run code"
	}
	c.addPart(p)
	c.scan(s, x, cw)
}

func (c *checkEnv) declClause(s *src, x *syntax.DeclClause, cw *cwds) {
	p := Part{Text: s.slice(x), Argv: []string{x.Variant.Value}, Via: "declare",
		Decision: Allow, Rule: RuleShellAssign, Reason: "declares shell variables"}
	for _, a := range x.Args {
		c.scan(s, a.Value, cw)
		if a.Array != nil {
			c.scan(s, a.Array, cw)
		}
		if a.Name == nil {
			if a.Value != nil {
				w := decodeWord(a.Value, c.home)
				if !w.static {
					p.Dynamic = true
					p.Decision, p.Rule, p.Reason = Ask, RuleShellDynamicArg, "a declaration built from an expansion"
					continue
				}
				p.Argv = append(p.Argv, w.val)
				if strings.HasPrefix(w.val, "-") && strings.ContainsAny(w.val, "fFn") && !strings.ContainsAny(w.val, "p") {
					if strings.ContainsRune(w.val, 'n') {
						p.Decision, p.Rule, p.Reason = Ask, RuleShellOption, "a name reference can redirect later assignments"
					}
				}
			}
			continue
		}
		name := a.Name.Value
		p.Argv = append(p.Argv, name)
		val := word{static: true}
		if a.Value != nil {
			val = decodeWord(a.Value, c.home)
		}
		exported := x.Variant.Value == "export" || strings.Contains(strings.Join(p.Argv, " "), "-x")
		if !exported && a.Naked {
			continue
		}
		f := envVarWordFinding(name, val, !exported)
		if name == "PATH" && a.Index == nil && a.Array == nil && c.pathPrependsWorkspace(a.Value, cw) { // pathprepend.go
			f = finding{Allow, RuleSandboxCode, "puts the workspace's own program folders on PATH, inside the sandbox"}
			if !c.sandbox {
				f = finding{Ask, RuleEnvExecVar, "PATH puts the workspace's own programs first: with --sandbox off that asks"}
			}
		}
		if f.d > p.Decision {
			p.Decision, p.Rule, p.Reason = f.d, f.rule, f.reason
		}
		if a.Index != nil && p.Decision < Ask {
			p.Decision, p.Rule, p.Reason = Ask, RuleShellArith, "an array subscript is evaluated as arithmetic"
		}
	}
	named := false
	for _, a := range x.Args {
		if a.Name != nil {
			named = true
		}
	}
	if !named && p.Decision < Ask {
		p.Decision, p.Rule, p.Reason = Ask, RuleEnvPrint, x.Variant.Value+" with no names prints variables, secrets included"
	}
	c.addPart(p)
}

// forkBomb reports a function whose body runs itself in the background or
// in a pipeline with itself: :(){ :|:& };:
func forkBomb(f *syntax.FuncDecl) bool {
	if f.Name == nil || f.Body == nil {
		return false
	}
	name := f.Name.Value
	calls, bg := 0, false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if len(x.Args) > 0 && x.Args[0].Lit() == name {
				calls++
			}
		case *syntax.Stmt:
			if x.Background {
				bg = true
			}
		}
		return true
	})
	return calls >= 2 || calls >= 1 && bg
}
