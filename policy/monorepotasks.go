package policy

import "strings"

// Monorepo task runners: turbo, nx and lerna run the workspace packages'
// own scripts and targets, the project's code. Inside the sandbox `turbo
// [run] TASK…`, `nx TARGET PROJECT`, `nx run PROJECT:TARGET`, `nx
// run-many|affected -t TARGET` and `lerna run SCRIPT` are allowed as
// `npm run` is; their own commands (log in, link a remote cache, generate
// code, migrate or add dependencies, version, release, publish, exec an
// arbitrary command), an option that names a remote cache, a token or a
// file they write, a task that sounds like publishing, a word not known
// before it runs, and the sandbox off ask.

// taskRunner describes one runner: verbs that lead a task list (turbo
// run, nx run-many), its own commands, which ask, its read-only listing
// commands, and the option words that reach a remote cache or write
// elsewhere.
type taskRunner struct {
	lead, own, reads wordSet
	badOpts          []string
	onlyLead         bool // tasks run only after a lead verb (lerna run)
}

var taskRunners = lazy[map[string]*taskRunner]{build: func() map[string]*taskRunner {
	return map[string]*taskRunner{
		"turbo": {
			lead: wordSet{words: []string{"run"}},
			own: wordSet{words: []string{"login", "logout", "link", "unlink", "telemetry", "gen", "generate", "prune",
				"daemon", "bin", "scan", "info", "ls", "query", "watch", "boundaries", "docs"}},
			badOpts: []string{"token", "team", "api", "remote", "login", "graph", "cache-dir", "output", "profile", "summarize",
				"preflight", "signature", "env-mode", "framework-inference", "cwd"}, // --cwd /tmp runs another tree's scripts
		},
		"nx": {
			lead: wordSet{words: []string{"run", "run-many", "affected"}},
			own: wordSet{words: []string{"add", "migrate", "generate", "g", "connect", "connect-to-nx-cloud", "login", "logout",
				"release", "import", "init", "repair", "sync", "daemon", "watch", "exec", "graph", "dep-graph", "view-logs",
				"record", "start-ci-run", "fix-ci", "mcp", "configure-ai-agents", "reset", "list", "report", "format", "format:write"}},
			reads:   wordSet{words: []string{"show", "--version", "format:check"}},
			badOpts: []string{"token", "cloud", "runner", "remote", "graph", "file", "output-path", "skip-sync", "web", "open"},
		},
		"lerna": {
			lead: wordSet{words: []string{"run"}},
			own: wordSet{words: []string{"publish", "version", "exec", "add", "bootstrap", "clean", "create", "import", "init",
				"link", "repair", "watch", "add-caching"}},
			reads:    wordSet{words: []string{"list", "ls", "la", "ll", "info", "changed", "diff", "--version"}},
			badOpts:  []string{"token", "cloud", "registry", "remote", "git-remote", "output", "npm-client"},
			onlyLead: true,
		},
	}
}}

// taskRunnerCmd judges turbo, nx and lerna.
func taskRunnerCmd(x *cmdCtx, args []word) {
	tool := args[0].val
	r := taskRunners.get()[tool]
	if len(args) >= 2 && args[1].static && r.reads.has(args[1].val) && !r.badOption(args[2:]) {
		x.add(Allow, RuleReadOnly, tool+" "+args[1].val+" prints the workspace's projects")
		x.inWorkspace()
		return
	}
	if len(args) < 2 {
		x.add(Ask, RuleUnknownCommand, tool+" with no task")
		return
	}
	rest := args[1:]
	led := false
	if rest[0].static && r.lead.has(rest[0].val) {
		rest, led = rest[1:], true
	}
	if r.onlyLead && !led {
		x.add(Ask, RuleBuildOption, tool+" "+quoteShort(args[1].val)+" is not a plain run of the packages' scripts")
		return
	}
	tasks := 0
	for _, w := range rest {
		v := strings.ToLower(w.val)
		switch {
		case v == "--":
			// what follows goes to the scripts as their arguments
		case !w.static || w.brace:
			x.add(Ask, RuleUnknownCommand, tool+" "+quoteShort(w.val)+" is not known before it runs")
			return
		case strings.HasPrefix(v, "-"):
			if r.badOption([]word{w}) {
				x.add(Ask, RuleBuildOption, tool+" "+w.val+" reaches a remote cache or writes elsewhere")
				return
			}
			if name, task, ok := strings.Cut(v, "="); ok && (name == "--target" || name == "--targets") {
				// nx run-many --target=build: the task list, as -t build
				for _, t := range strings.Split(task, ",") {
					if publishWord(t) {
						x.add(Ask, RuleBuildOption, tool+" "+w.val+" is not a plain task of the packages")
						return
					}
				}
				tasks++
			}
		case tasks == 0 && r.own.has(v) || publishWord(v):
			x.add(Ask, RuleBuildOption, tool+" "+w.val+" is not a plain task of the packages")
			return
		default:
			tasks++
		}
	}
	if tasks == 0 {
		x.add(Ask, RuleUnknownCommand, tool+" with no task")
		return
	}
	if !x.c.sandbox && (x.cw.unknown || x.remoteCacheConfigured(tool)) { // projectrunners_off.go
		x.add(Ask, RuleBuildOption, tool+" uploads its outputs to the remote cache the workspace configures, and the sandbox is off")
		return
	}
	x.projectCode(tool+" runs the packages' own scripts", RuleUnknownCommand, tool+" runs the packages' scripts after the line wrote a file") // projectrunners_off.go
	x.inWorkspace()
}

// badOption reports whether an option among args names a remote cache, a
// token or a place the runner writes (or, for a dynamic word, may).
func (r *taskRunner) badOption(args []word) bool {
	for _, w := range args {
		if !w.static || w.brace {
			return true
		}
		v := strings.ToLower(w.val)
		if !strings.HasPrefix(v, "-") {
			continue
		}
		name, _, _ := strings.Cut(v, "=")
		for _, bad := range r.badOpts {
			if strings.Contains(name, bad) {
				return true
			}
		}
	}
	return false
}
