package policy

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Engine judges queries against the built-in rules and the rules loaded
// from files. It is safe for concurrent use; its tables are built once.
type Engine struct {
	roots   sync.Map         // canonical forms of workspace and home roots (Sentinel's own paths)
	user    []*Rule          // rules from files, in load order
	byID    map[string]*Rule // built-in and user rules by id
	sources []string         // rule files that were read
}

// finding is one contribution to a decision.
type finding struct {
	d      Decision
	rule   string
	reason string
}

// defaultEngine is built on first use, not at start-up: every start of
// sentinel (a sandboxed command's, a hook's) links the policy (lazy.go).
var defaultEngine = lazy[*Engine]{build: newEngine}

var builtinsOnce sync.Once

// builtins returns the built-in rules, builtinCatalog and prefixRules,
// marked as built-in on first use. They are read only through it.
func builtins() (catalog, prefix []Rule) {
	builtinsOnce.Do(func() {
		for i := range builtinCatalog {
			builtinCatalog[i].Source = "built-in"
		}
		for i := range prefixRules {
			prefixRules[i].Source = "built-in"
		}
	})
	return builtinCatalog, prefixRules
}

func newEngine() *Engine {
	builtinCatalog, prefixRules := builtins()
	e := &Engine{byID: make(map[string]*Rule, len(builtinCatalog)+len(prefixRules))}
	for i := range builtinCatalog {
		e.byID[builtinCatalog[i].ID] = &builtinCatalog[i]
	}
	for i := range prefixRules {
		if _, dup := e.byID[prefixRules[i].ID]; !dup {
			e.byID[prefixRules[i].ID] = &prefixRules[i]
		}
	}
	return e
}

// Default returns an engine with the built-in rules only.
func Default() *Engine { return defaultEngine.get() }

// Rules returns every rule the engine knows, built-in first, then the
// loaded files' rules in order.
func (e *Engine) Rules() []*Rule {
	builtinCatalog, prefixRules := builtins()
	out := make([]*Rule, 0, len(builtinCatalog)+len(prefixRules)+len(e.user))
	seen := map[string]bool{}
	for i := range builtinCatalog {
		out = append(out, &builtinCatalog[i])
		seen[builtinCatalog[i].ID] = true
	}
	for i := range prefixRules {
		if !seen[prefixRules[i].ID] {
			out = append(out, &prefixRules[i])
			seen[prefixRules[i].ID] = true
		}
	}
	return append(out, e.user...)
}

// Rule returns the rule with this id, or nil.
func (e *Engine) Rule(id string) *Rule { return e.byID[id] }

// Sources lists the rule files that were found and loaded.
func (e *Engine) Sources() []string { return append([]string(nil), e.sources...) }

// checkEnv is the state of one Check call.
type checkEnv struct {
	e            *Engine
	writes       *ShellWrites    // when set, every write judged (shellwrites.go)
	reading      *Reading        // the query's parse of its line, when it carries one (reading.go)
	addedRemotes map[string]bool // git remotes the line added (gitpushto.go)
	ws           string
	home         string
	writable     []string
	parts        []Part
	never        bool
	budget       int                           // simple commands left before the line is too large to judge
	wsRaw        string                        // the workspace as given
	wsVars       []string                      // variables the runner set to the workspace (Context.WorkspaceVars)
	line         string                        // the whole line being judged, nested texts included
	sandbox      bool                          // the command runs inside Sentinel's sandbox
	inPlace      bool                          // the person's real files, not a disposable copy (inplace.go)
	checkpointed bool                          // a checkpoint covers the place
	tmp          string                        // the sandbox's private temp dir, when sandboxed (tmpdir.go)
	capture      bool                          // the path being judged is a redirection or tee target (tmpdir.go)
	written      map[string][]string           // files this line writes: the spellings of their text, nil when unknown
	built        map[string]int                // files this line builds from the project's sources, by the step that built them (tmpdir.go buildOutput)
	builtOutside map[string]bool               // of built, the products compiled from a source outside the workspace (builtrun_off.go)
	step         int                           // bumped wherever a later command runs even when an earlier one failed (builtrun.go)
	cdTo         []string                      // where the last cd judged goes when it succeeds (cdand.go)
	cdKnown      bool                          // cdTo is known
	envScreened  map[*syntax.CallExpr]bool     // environment listings piped into a filter that hides every secret (envscreen.go)
	keepText     bool                          // the command being judged changes files' modes or times, or makes empty directories, not any text
	bind         map[string]word               // loop variables bound to one of their static words (subst.go)
	memo         map[string]string             // canonical paths resolved during this Check
	dumps        map[*syntax.CallExpr]dumpMemo // calls read as environment dumps during this Check (dumpenv.go)
	substVars    map[*syntax.ParamExp]word     // uses of NAME=$(producer) bound to the producer's stand-in (substassign.go)
	xargsFed     map[*syntax.CallExpr][]word   // xargs stages fed plain static items by echo or printf (substassign.go)
	xargsListed  map[*syntax.CallExpr]string   // xargs stages fed the workspace's own names, with the name that stands for one (xargslisted_off.go)
	fetched      map[string]bool               // files this line downloads into (fetchedrun.go)
	substEmpty   bool                          // substitutions decode as empty, as when their producer fails (emptysubst.go)
}

// root canonicalizes a root path the adapter gave (workspace, home,
// writable roots), remembering it across calls.
func (e *Engine) root(p string) string {
	if v, ok := e.roots.Load(p); ok {
		return v.(string)
	}
	v := canonical(filepath.Clean(p))
	e.roots.Store(p, v)
	return v
}

func (e *Engine) newEnv(ctx Context) *checkEnv {
	c := &checkEnv{e: e, budget: 20000, sandbox: ctx.Sandboxed, inPlace: ctx.InPlace, checkpointed: ctx.Checkpointed}
	home := ctx.Home
	if home == "" {
		// An adapter that leaves Home out still gets credential checks.
		home, _ = os.UserHomeDir()
	}
	if home != "" && filepath.IsAbs(home) {
		c.home = e.root(home)
	}
	ws := ctx.Workspace
	if ws == "" {
		ws = ctx.Cwd
	}
	if ws != "" && filepath.IsAbs(ws) {
		c.ws = e.root(ws)
		c.wsRaw = filepath.Clean(ws)
		c.wsVars = ctx.WorkspaceVars
	}
	if ctx.Sandboxed {
		c.tmp = e.root(sandboxTemp) // tmpdir.go
	}
	for _, w := range ctx.Writable {
		if filepath.IsAbs(w) {
			c.writable = append(c.writable, e.root(w))
		}
	}
	return c
}

// startCwd is the directory a request runs in.
func (c *checkEnv) startCwd(ctx Context) cwds {
	cwd := ctx.Cwd
	switch {
	case cwd == "" && c.ws != "":
		return cwds{dirs: []string{c.ws}}
	case cwd == "":
		return cwds{unknown: true}
	case !filepath.IsAbs(cwd):
		if c.ws == "" {
			return cwds{unknown: true}
		}
		cwd = rawJoin(c.ws, cwd)
	}
	if d := c.canon(cwd); d != "" {
		return cwds{dirs: []string{d}}
	}
	return cwds{unknown: true}
}

// Check judges one query.
func (e *Engine) Check(q Query) Verdict {
	c := e.newEnv(q.Context)
	var v Verdict
	switch q.Kind {
	case KindShell:
		v = c.checkShell(q)
	case KindWrite, KindEdit, KindRead:
		v = c.checkPath(q)
	case KindNet:
		v = c.checkNet(q)
	case KindMCP, KindOther:
		v = c.checkTool(q)
	default:
		v = verdictOf(finding{Ask, RuleQueryBad, "unknown request kind " + quoteShort(string(q.Kind))})
	}
	return v
}

func verdictOf(f finding) Verdict {
	return Verdict{Decision: f.d, Rule: f.rule, Reason: f.reason,
		Parts: []Part{{Decision: f.d, Rule: f.rule, Reason: f.reason}}}
}

func (c *checkEnv) checkShell(q Query) Verdict {
	if strings.TrimSpace(q.Command) == "" {
		return verdictOf(finding{Ask, RuleShellEmpty, "the command is empty"})
	}
	cw := c.startCwd(q.Context)
	c.line = q.Command
	c.reading = q.Reading
	c.shell(q.Command, &cw, 0, "")
	if len(c.parts) == 0 {
		// Only comments: nothing runs, but nothing to judge either.
		return verdictOf(finding{Ask, RuleShellEmpty, "the command holds no commands"})
	}
	c.databasesOutsideTheCopy()
	c.productionDatabaseDrops() // dbproduction.go
	c.remoteDatabaseDrops()     // dbdrophost.go
	v := Verdict{Parts: c.parts, NeverDelegable: c.never}
	best := -1
	for i, p := range c.parts {
		if best < 0 || p.Decision > c.parts[best].Decision ||
			p.Decision == c.parts[best].Decision && isEvalSink(p) && !isEvalSink(c.parts[best]) {
			best = i
		}
	}
	p := c.parts[best]
	v.Decision, v.Rule = p.Decision, p.Rule
	v.Reason = p.Reason
	if len(c.parts) > 1 && p.Text != "" {
		v.Reason = quoteShort(p.Text) + ": " + p.Reason
	}
	return v
}

// checkPath judges a structured read, write or edit.
func (c *checkEnv) checkPath(q Query) Verdict {
	p := q.Path
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		return verdictOf(finding{Ask, RuleQueryBad, "the request names no usable path"})
	}
	if c.home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = c.home + p[1:]
	}
	if !filepath.IsAbs(p) {
		cw := c.startCwd(q.Context)
		if cw.unknown {
			return verdictOf(finding{Ask, RulePathUnknown, "a relative path with no working directory"})
		}
		p = rawJoin(cw.dirs[0], p)
	}
	p = c.canon(p)
	write := q.Kind != KindRead
	f := c.judgePath(p, write)
	v := verdictOf(f)
	v.Parts[0].Text = string(q.Kind) + " " + q.Path
	v.Parts[0].Redirects = []string{p}
	v.NeverDelegable = c.never
	return v
}

// judgePath is pathVerdict with the user's path rules applied.
func (c *checkEnv) judgePath(p string, write bool) finding {
	f := c.pathVerdict(p, write)
	if write {
		f = c.jvmOptionsWrite(p, f)  // jvmoptions.go
		f = c.venvProgramWrite(p, f) // venvbin.go
	}
	f = c.e.applyPathRules(f, p, write, c)
	if write {
		c.noteWrite(p)
		c.wrote(p)
	}
	if write && f.rule == RulePathWriteLater {
		c.never = true
	}
	if !write && f.rule == RulePathReadSecret && f.d == Ask {
		// A secret read into the coder's context cannot be taken back;
		// only a person may decide it, never a supervisor model.
		c.never = true
	}
	return f
}

func (c *checkEnv) checkTool(q Query) Verdict {
	name := strings.TrimSpace(q.Tool)
	if name == "" {
		return verdictOf(finding{Ask, RuleQueryBad, "the request names no tool"})
	}
	f := finding{Ask, RuleMCPDefault, "MCP tool " + quoteShort(name) + " is not allowed by any rule"}
	if q.Kind == KindOther {
		f = finding{Ask, RuleOtherDefault, "tool " + quoteShort(name) + " is not known to the policy"}
		if agentInternalTools.has(name) {
			f = finding{Allow, RuleAgentInternal, "tool " + quoteShort(name) + " is the agent's own bookkeeping: it runs nothing and touches no file or host"}
		}
	}
	f = c.e.applyToolRules(f, name)
	v := verdictOf(f)
	v.Parts[0].Text = name
	return v
}

// agentInternalTools are agents' tools that only keep their own state: a
// todo list, plan mode, starting a subagent (whose own tool calls reach the
// hook one by one), searching the agent's tool list. Anything that runs a
// command, touches a file or reaches a host is judged by its own kind.
// Gemini CLI's (0.61) are its todo list and task tracker, the topic it
// shows, plan mode, a question to the person in its own screen and a
// subagent's end; its invoke_agent is not here (that every tool call of a
// Gemini subagent reaches the hook has not been verified).
var agentInternalTools = wordSet{words: []string{
	"TodoWrite", "TodoRead", "ExitPlanMode", "EnterPlanMode",
	"Task", "Agent", "ToolSearch",
	"write_todos", "update_topic", "enter_plan_mode", "exit_plan_mode", "ask_user", "complete_task",
	"tracker_create_task", "tracker_update_task", "tracker_get_task", "tracker_list_tasks",
	"tracker_add_dependency", "tracker_visualize",
}}

// quoteShort quotes s for a reason, cut to a readable length.
func quoteShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return "'" + s + "'"
}
