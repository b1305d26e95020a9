package policy

import "strings"

// ~NAME: another user's home directory, or the text ~NAME (issue 32,
// pol23).
//
// bash expands a tilde-prefix — an unquoted ~ at the start of a word, up to
// the first unquoted / — to the home directory of the login NAME when that
// user exists, and leaves the word as typed when it does not. In a word
// that looks like an assignment (dd if=~bob/x, a=b:~bob/y) it does so after
// the first = and after every : too, even when the word is an argument
// (bash outside POSIX mode). So ~NAME is not knowable before the line runs:
// decodeParts marks it not static, and every reading that takes it for a
// path asks (cat ~root/.ssh/id_rsa, cp -r ~bob ., tar czf x ~bob).
//
// The engine's places that read ~ as a home directory:
//   - decodeParts (words.go): ~ and ~/ become the home directory; ~NAME,
//     ~+ and ~- are not static; ~"x" (quoted, which bash leaves alone) is
//     read as the home directory, the stricter reading.
//   - expandAssignTilde (words.go): ~ and ~/ after NAME= and after : in an
//     assignment-like word; assignUserTilde below makes ~NAME there not
//     static (dd if=~bob/.bash_history of=x was allowed as a workspace copy).
//   - access (command.go): a literal "~/…" a tool may expand itself is also
//     judged as the home path.
//   - checkPath (engine.go), rules' globs (rules.go), code strings
//     (codewritepaths.go, homeref.go): "~" and "~/" only.
//
// What ~NAME is depends on where it stands. As the value of a test
// runner's filter option — `rspec --tag ~slow` (RSpec's documented
// negation: run everything not tagged slow), `cucumber -t ~@wip`, `pytest
// -k ~x`, `jest -t ~x` — the program matches test names or tags against
// the text; whatever bash makes of it (~slow, or /home/slow), it is never
// opened, run or sent. filterOptionValues rewrites such a value to its text,
// a static word, before the program is judged, so the line is judged as
// `rspec --tag=~slow` already was. Only the option of the program that
// actually runs counts: `rm -rf -- rspec --tag ~root` still deletes ~root.

// filterOptions lists, per test runner, the options whose value is a name,
// tag or pattern the runner matches tests against.
var filterOptions = lazy[map[string]*wordSet]{build: func() map[string]*wordSet {
	return map[string]*wordSet{
		"rspec":    {words: []string{"-t", "--tag", "-e", "--example", "-E", "--example-matches"}},
		"cucumber": {words: []string{"-t", "--tags", "-n", "--name"}},
		"pytest":   {words: []string{"-k", "-m"}},
		"py.test":  {words: []string{"-k", "-m"}},
		"jest":     {words: []string{"-t", "--testNamePattern"}},
		"vitest":   {words: []string{"-t", "--testNamePattern"}},
		"mocha":    {words: []string{"-g", "--grep", "-f", "--fgrep"}},
	}
}}

// filterRunnerPrefixes are the words before a test runner that run it as
// it is (bundle exec rspec, npx jest, python -m pytest).
var filterRunnerPrefixes = [][]string{{"bundle", "exec"}, {"npx"}, {"bunx"}, {"pnpm", "exec"}, {"yarn"},
	{"uv", "run"}, {"poetry", "run"}, {"pipenv", "run"}, {"python", "-m"}, {"python3", "-m"}}

// filterOptionValues returns args with each ~NAME that is the value of the
// running test runner's filter option (see above) made a static word of
// its text; args itself when there is none.
func filterOptionValues(args []word) []word {
	p := filterRunnerAt(args)
	if p < 0 {
		return args
	}
	opts := filterOptions.get()[baseName(args[p].val)]
	var out []word
	for i := p + 2; i < len(args); i++ {
		prev := args[i-1]
		if !args[i].userTilde || !prev.static || !opts.has(prev.val) {
			continue
		}
		if out == nil {
			out = append([]word(nil), args...)
		}
		out[i] = word{val: args[i].val, static: true}
	}
	if out == nil {
		return args
	}
	return out
}

// filterRunnerAt is the index of the test runner args run, -1 for none.
func filterRunnerAt(args []word) int {
	if len(args) == 0 {
		return -1
	}
	if _, ok := filterOptions.get()[baseName(args[0].val)]; ok && args[0].static {
		return 0
	}
	for _, pre := range filterRunnerPrefixes {
		if len(args) <= len(pre) {
			continue
		}
		match := true
		for j, w := range pre {
			v := args[j].val
			if j == 0 {
				v = baseName(v)
			}
			if !args[j].static || v != w {
				match = false
				break
			}
		}
		if _, ok := filterOptions.get()[args[len(pre)].val]; match && ok && args[len(pre)].static {
			return len(pre)
		}
	}
	return -1
}

// userTildePrefix reports whether v begins with ~NAME, a tilde-prefix bash
// expands to a login's home directory when that login exists (not ~, ~/,
// ~+ or ~-, which are the home directory, $PWD and $OLDPWD).
func userTildePrefix(v string) bool {
	if !strings.HasPrefix(v, "~") || len(v) < 2 {
		return false
	}
	c := v[1]
	return c != '/' && c != ':' && c != '+' && c != '-'
}

// assignUserTilde reports whether an assignment-like word (NAME=…) holds a
// ~NAME bash expands after its first = or a later : (dd if=~bob/x).
func assignUserTilde(v string) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || !validName(v[:eq]) {
		return false
	}
	for _, p := range strings.Split(v[eq+1:], ":") {
		if strings.HasPrefix(p, "~") && !(p == "~" || strings.HasPrefix(p, "~/")) {
			return true // ~bob, ~+, ~-: not the home directory, not knowable
		}
	}
	return false
}
