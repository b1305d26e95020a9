package policy

import "strings"

// Test runners and linters a project runs from its own tree, as pytest and
// rspec are: bats (shell tests), cucumber and behave (features), ava and
// tap (Node), busted (Lua), ward (Python), guard (Ruby: reruns the
// project's tests as its Guardfile says); the linters and formatters
// oxlint, xo, standard, dprint, stylua, selene and luacheck. Each reads the
// project and runs its test code, which the sandbox contains, like every
// project tool (projectTool: -c, -r and options that load code or a
// configuration from elsewhere ask). A runner's option that names a
// program or module it loads (bats --formatter and --report-formatter take
// a path to an executable; cucumber --format a class that --require loads)
// asks as well.

// testRunners are the project's test runners and linters of this file.
var testRunners = []string{"bats", "cucumber", "cucumber-js", "behave", "ava", "tap", "busted", "ward", "guard",
	"oxlint", "xo", "standard", "dprint", "stylua", "selene", "luacheck"}

// runnerLoadOptions are, per runner, the options whose value is a program
// or module the runner loads (besides projectTool's -c, -r, --require…).
var runnerLoadOptions = lazy[map[string]*wordSet]{build: func() map[string]*wordSet {
	return map[string]*wordSet{
		"bats":        &wordSet{words: []string{"-F", "--formatter", "--report-formatter", "--gather-test-outputs-in", "-o", "--output"}},
		"cucumber":    &wordSet{words: []string{"-f", "--format", "--profile", "-p", "--out", "-o"}},
		"cucumber-js": &wordSet{words: []string{"-f", "--format", "--import", "-i", "--profile", "-p"}},
		"behave":      &wordSet{words: []string{"-f", "--format", "-o", "--outfile"}},
		"tap":         &wordSet{words: []string{"-R", "--reporter", "--node-arg", "--test-arg"}},
		"ava":         &wordSet{words: []string{"--node-arguments"}},
		"busted":      &wordSet{words: []string{"-o", "--output", "--helper", "--loaders", "--lpath", "--cpath", "-e", "--run"}},
		"dprint":      &wordSet{words: []string{"--plugins"}},
		"guard":       &wordSet{words: []string{"-G", "--guardfile"}},
	}
}}

// addTestRunnerHandlers registers the runners of testRunners not already
// known.
func addTestRunnerHandlers(handlers map[string]handler) {
	for _, n := range testRunners {
		if _, known := handlers[n]; !known {
			handlers[n] = testRunner
		}
	}
}

// testRunner asks for an option that loads a program or module, and
// judges the rest as a project tool.
func testRunner(x *cmdCtx, args []word) {
	set, ok := runnerLoadOptions.get()[args[0].val]
	for _, a := range args[1:] {
		name, _, _ := strings.Cut(a.val, "=")
		if ok && set.has(name) {
			x.add(Ask, RuleBuildOption, args[0].val+" "+quoteShort(name)+" names a program, module or file it loads or writes")
			return
		}
	}
	projectTool(x, args)
}
