package policy

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Rule is one rule, built-in or loaded from a TOML file, for example
//
//	[[rule]]
//	id = "lint"                 # unique; shown as the deciding rule
//	decision = "allow"          # allow | ask | deny
//	reason = "our linter"       # optional; shown to the person and the coder
//	argv = ["make", "lint"]     # or paths = [...] / hosts = [...] / tools = [...]
//	match = ["make lint", "make lint -j4"]   # checked when the file loads
//	not_match = ["make deploy"]
//
// A user allow lowers only an ask: it never overrides a built-in deny. A file rule has
// exactly one matcher: Argv (token prefix of a command's effective argv;
// "*" matches any one token), Paths (globs for reads, writes and edits;
// relative to the workspace, "~/" for home, "**" for any depth), Hosts
// (exact names or "*.example.com", optionally with ":port") or Tools (MCP
// tool name globs).
type Rule struct {
	ID       string   `toml:"id" json:"id"`
	Decision Decision `toml:"-" json:"decision"`
	Reason   string   `toml:"reason" json:"reason,omitempty"`
	Argv     []string `toml:"argv" json:"argv,omitempty"`
	Paths    []string `toml:"paths" json:"paths,omitempty"`
	Access   string   `toml:"access" json:"access,omitempty"` // paths: "read", "write" or "" for both
	Hosts    []string `toml:"hosts" json:"hosts,omitempty"`
	Tools    []string `toml:"tools" json:"tools,omitempty"`
	Match    []string `toml:"match" json:"match,omitempty"`
	NotMatch []string `toml:"not_match" json:"not_match,omitempty"`
	Source   string   `toml:"-" json:"source"` // "built-in" or the file it came from
	Line     int      `toml:"-" json:"line,omitempty"`

	DecisionText string `toml:"decision" json:"-"`
}

// RuleFiles is the one list and order of the rule files loaded on top of
// the built-in rules, for every caller (runs, exec, sentinel mcp, sentinel
// policy check): the user's (os.UserConfigDir()/sentinel/policy.toml)
// first, then the project's (.sentinel/policy.toml under projectRoot) as
// the caller's trust gate lets it through. gate is given the project's
// file and is the path to load in its place, "" to leave it out (a nil
// gate leaves it out: a project's rules are never taken unchecked). Either
// file may not exist.
func RuleFiles(projectRoot string, gate func(projectFile string) string) []string {
	var out []string
	if dir, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(dir, "sentinel", "policy.toml"))
	}
	if projectRoot != "" && gate != nil {
		if f := gate(filepath.Join(projectRoot, ".sentinel", "policy.toml")); f != "" {
			out = append(out, f)
		}
	}
	return out
}

type ruleFile struct {
	Rule []Rule `toml:"rule"`
}

// Load returns the built-in rules plus every rule file named (a file that
// does not exist is skipped; a malformed one is an error naming file, line
// and rule).
func Load(files ...string) (*Engine, error) {
	e := newEngine()
	for _, f := range files {
		if f == "" {
			continue
		}
		data, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("policy rules %s: %w", f, err)
		}
		if err := e.addFile(f, string(data)); err != nil {
			return nil, err
		}
		e.sources = append(e.sources, f)
	}
	return e, nil
}

// keyLine finds the first line assigning key.
func keyLine(text, key string) int {
	for i, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, key) && strings.HasPrefix(strings.TrimSpace(t[len(key):]), "=") {
			return i + 1
		}
	}
	return 0
}

// ruleLines finds the line of each [[rule]] header.
func ruleLines(text string) []int {
	var lines []int
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	n := 0
	for sc.Scan() {
		n++
		t := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(t, "[[") && strings.TrimSpace(strings.Trim(t, "[]")) == "rule" {
			lines = append(lines, n)
		}
	}
	return lines
}

func (e *Engine) addFile(file, text string) error {
	var rf ruleFile
	md, err := toml.Decode(text, &rf)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d: %s (fix the TOML syntax)", file, pe.Position.Line, pe.Message)
		}
		msg := strings.TrimPrefix(err.Error(), "toml: ")
		var line int
		if _, scanErr := fmt.Sscanf(msg, "line %d", &line); scanErr == nil {
			if _, rest, ok := strings.Cut(msg, ": "); ok {
				msg = rest
			}
			return fmt.Errorf("%s:%d: %s", file, line, msg)
		}
		return fmt.Errorf("%s: %s", file, msg)
	}
	lines := ruleLines(text)
	lineOf := func(i int) int {
		if i < len(lines) {
			return lines[i]
		}
		return 0
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return fmt.Errorf("%s:%d: unknown key %q (rules take id, decision, reason, argv, paths, access, hosts, tools, match, not_match)",
			file, keyLine(text, k[len(k)-1]), k.String())
	}
	for i := range rf.Rule {
		r := rf.Rule[i]
		r.Source, r.Line = file, lineOf(i)
		where := fmt.Sprintf("%s:%d: rule %q", file, r.Line, r.ID)
		if r.ID == "" {
			return fmt.Errorf("%s:%d: rule without an id (add id = \"...\")", file, r.Line)
		}
		if _, dup := e.byID[r.ID]; dup {
			return fmt.Errorf("%s: the id is already used by %s (ids must be unique)", where, e.byID[r.ID].Source)
		}
		if err := r.Decision.UnmarshalText([]byte(r.DecisionText)); err != nil {
			return fmt.Errorf("%s: decision: %v", where, err)
		}
		n := 0
		for _, l := range [][]string{r.Argv, r.Paths, r.Hosts, r.Tools} {
			if len(l) > 0 {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: needs exactly one of argv, paths, hosts or tools", where)
		}
		switch r.Access {
		case "", "read", "write":
		default:
			return fmt.Errorf("%s: access must be \"read\", \"write\" or left out, not %q", where, r.Access)
		}
		for _, p := range append(append([]string(nil), r.Paths...), r.Tools...) {
			if _, err := path.Match(strings.ReplaceAll(p, "**", "*"), ""); err != nil {
				return fmt.Errorf("%s: bad glob %q: %v", where, p, err)
			}
		}
		rp := &r
		if err := e.checkExamples(rp); err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		e.user = append(e.user, rp)
		e.byID[r.ID] = rp
	}
	return nil
}

// exampleCtx is where rule examples are judged.
var exampleCtx = Context{Workspace: "/sentinel-example/ws", Cwd: "/sentinel-example/ws", Home: "/sentinel-example/home"}

// ruleMatches reports whether r covers one example.
func (e *Engine) ruleMatches(r *Rule, ex string) bool {
	switch {
	case len(r.Argv) > 0:
		v := Default().Check(Query{Kind: KindShell, Command: ex, Context: exampleCtx})
		for _, p := range v.Parts {
			if p.Argv != nil && argvMatch(r.Argv, p.Argv) {
				return true
			}
		}
		return false
	case len(r.Paths) > 0:
		p := ex
		if strings.HasPrefix(p, "~/") {
			p = exampleCtx.Home + p[1:]
		} else if !filepath.IsAbs(p) {
			p = filepath.Join(exampleCtx.Workspace, p)
		}
		c := &checkEnv{ws: exampleCtx.Workspace, home: exampleCtx.Home}
		for _, g := range r.Paths {
			if globMatch(c.absPattern(g), filepath.Clean(p)) {
				return true
			}
		}
		return false
	case len(r.Hosts) > 0:
		v := (&checkEnv{e: defaultEngine.get()}).checkNet(Query{Kind: KindNet, URL: ex})
		host, port := v.Parts[0].Text, 0
		if h, p, ok := strings.Cut(host, ":"); ok && !strings.Contains(p, ":") {
			host = h
			fmt.Sscanf(p, "%d", &port)
		}
		for _, h := range r.Hosts {
			if hostMatches(h, host, port) {
				return true
			}
		}
		return false
	case len(r.Tools) > 0:
		for _, t := range r.Tools {
			if ok, _ := path.Match(t, ex); ok {
				return true
			}
		}
	}
	return false
}

func (e *Engine) checkExamples(r *Rule) error {
	for _, ex := range r.Match {
		if !e.ruleMatches(r, ex) {
			return fmt.Errorf("match example %q is not matched by the rule (fix the example or the rule)", ex)
		}
		if r.Decision == Allow && len(r.Argv) > 0 {
			if v := Default().Check(Query{Kind: KindShell, Command: ex, Context: exampleCtx}); v.Decision == Deny {
				return fmt.Errorf("match example %q is denied by built-in rule %s, and an allow rule can never override a built-in deny", ex, v.Rule)
			}
		}
	}
	for _, ex := range r.NotMatch {
		if e.ruleMatches(r, ex) {
			return fmt.Errorf("not_match example %q is matched by the rule (narrow the rule or fix the example)", ex)
		}
	}
	return nil
}

// argvMatch reports whether prefix is a token prefix of argv ("*" matches
// any single token).
func argvMatch(prefix, argv []string) bool {
	if len(prefix) > len(argv) {
		return false
	}
	for i, t := range prefix {
		if t != "*" && t != argv[i] {
			return false
		}
	}
	return true
}

// combine applies the user rules that matched to a built-in finding: a
// user deny always wins; a built-in deny is never lowered; a user ask
// raises; a user allow lowers an ask.
func combine(f finding, deny, ask, allow *Rule) finding {
	switch {
	case deny != nil:
		return finding{Deny, deny.ID, ruleReason(deny)}
	case f.d == Deny:
		return f
	case ask != nil:
		if f.d < Ask {
			return finding{Ask, ask.ID, ruleReason(ask)}
		}
		return f
	case allow != nil && f.d == Ask:
		return finding{Allow, allow.ID, ruleReason(allow)}
	}
	return f
}

func ruleReason(r *Rule) string {
	if r.Reason != "" {
		return r.Reason
	}
	return r.Decision.String() + " by rule " + r.ID + " (" + r.Source + ")"
}

func pick(r *Rule, deny, ask, allow **Rule) {
	var slot **Rule
	switch r.Decision {
	case Deny:
		slot = deny
	case Ask:
		slot = ask
	default:
		slot = allow
	}
	if *slot == nil {
		*slot = r
	}
}

func (e *Engine) applyArgvRules(f finding, argv []string) finding {
	if len(e.user) == 0 {
		return f
	}
	// A program named by its path is judged by its name too: a rule for
	// nc covers /usr/bin/nc and /usr/bin/../bin/nc. Deny and ask rules also
	// cover any other path to a program of that name (stricter is safe);
	// allow rules only a system program, which is that program.
	named, system := argv, false
	if len(argv) > 0 && strings.ContainsRune(argv[0], '/') {
		base, ok := resolvedProgram(argv[0])
		if !ok {
			base = filepath.Base(argv[0])
		}
		system = ok
		named = append([]string{base}, argv[1:]...)
	}
	var deny, ask, allow *Rule
	for _, r := range e.user {
		if len(r.Argv) == 0 {
			continue
		}
		if argvMatch(r.Argv, argv) || (r.Decision != Allow || system) && argvMatch(r.Argv, named) {
			pick(r, &deny, &ask, &allow)
		}
	}
	return combine(f, deny, ask, allow)
}

func (c *checkEnv) absPattern(g string) string {
	switch {
	case strings.HasPrefix(g, "~/"):
		return filepath.Join(c.home, g[2:])
	case filepath.IsAbs(g):
		return filepath.Clean(g)
	}
	return filepath.Join(c.ws, g)
}

func (e *Engine) applyPathRules(f finding, p string, write bool, c *checkEnv) finding {
	if len(e.user) == 0 {
		return f
	}
	var deny, ask, allow *Rule
	for _, r := range e.user {
		if len(r.Paths) == 0 || (r.Access == "read" && write) || (r.Access == "write" && !write) {
			continue
		}
		for _, g := range r.Paths {
			if globMatch(c.absPattern(g), p) {
				pick(r, &deny, &ask, &allow)
				break
			}
		}
	}
	return combine(f, deny, ask, allow)
}

func (e *Engine) applyHostRules(f finding, host string, port int) finding {
	var deny, ask, allow *Rule
	for _, r := range e.user {
		for _, h := range r.Hosts {
			if hostMatches(h, host, port) {
				pick(r, &deny, &ask, &allow)
				break
			}
		}
	}
	return combine(f, deny, ask, allow)
}

func (e *Engine) applyToolRules(f finding, name string) finding {
	var deny, ask, allow *Rule
	for _, r := range e.user {
		for _, t := range r.Tools {
			if ok, _ := path.Match(t, name); ok {
				pick(r, &deny, &ask, &allow)
				break
			}
		}
	}
	return combine(f, deny, ask, allow)
}

// globMatch matches an absolute path against an absolute glob where "**"
// stands for any number of path elements.
func globMatch(pattern, p string) bool {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(p, "/"), "/")
	return globParts(ps, xs)
}

func globParts(ps, xs []string) bool {
	for len(ps) > 0 {
		if ps[0] == "**" {
			for i := 0; i <= len(xs); i++ {
				if globParts(ps[1:], xs[i:]) {
					return true
				}
			}
			return false
		}
		if len(xs) == 0 {
			return false
		}
		if ok, _ := path.Match(ps[0], xs[0]); !ok {
			return false
		}
		ps, xs = ps[1:], xs[1:]
	}
	return len(xs) == 0
}
