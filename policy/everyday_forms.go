package policy

import "strings"

// Everyday forms of build tools that asked only because the tables above
// did not hold them (issue 32, polcorp6 class E3/E6): printing the tool's
// version or a setting, building the project's own package locally, and
// the tool's own boolean flags whose names contain a word riskyOptionWords
// holds. Each is the project's own work; the publishing, setting and
// fetching forms next to them (gem push, bundle config set, npm publish)
// stay with the tool's own handler.

// everydayFormVerbs are merged into buildVerbs (buildverbs.go).
func everydayFormVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		// bundle -v prints its version; bundle config get NAME prints one
		// setting (bundle config set writes .bundle/config, which runs
		// later: not here).
		"bundle": {"version": r, "-v": r, "--version": r, "config get": r},
		// gem build NAME.gemspec evaluates the project's gemspec and
		// writes NAME-x.y.z.gem in the current directory: the project's
		// own packaging, as dotnet pack and uv build are. gem push is the
		// publish.
		"gem": {"build": p},
		// deno bundle IN OUT compiles the project's module into one file
		// (its output operand is judged as a write by everydayFormArgs).
		"deno": {"bundle": p},
	}
}

// toolBoolFlag: a tool verb's own flags that take no value and whose
// names hold a word riskyOptionWords looks for: sobelow's --config reads
// the project's .sobelow-conf. A flag with a value (--config=x.exs) is not
// one of these and is judged as before.
func toolBoolFlag(toolVerb, flag string) bool {
	return toolVerb == "mix sobelow" && flag == "--config"
}

// everydayFormArgs drops the verb's own boolean flags and judges the
// output operand of deno bundle as a write; ok false sends the line to the
// tool's own handler.
func (x *cmdCtx) everydayFormArgs(tool, verb string, rest []word) ([]word, bool) {
	var out []word
	for _, w := range rest {
		if w.static && toolBoolFlag(tool+" "+verb, w.val) {
			continue
		}
		out = append(out, w)
	}
	if tool == "deno" && verb == "bundle" {
		var ops []word
		for _, w := range out {
			if !strings.HasPrefix(w.val, "-") {
				ops = append(ops, w)
			}
		}
		if len(ops) != 2 || !ops[1].static {
			return nil, false
		}
		x.write(ops[1])
		return out[:len(out)-1], out[len(out)-1].val == ops[1].val
	}
	return out, true
}

// writtenBefore reports whether the line wrote a file before this command
// other than the command's own output redirection: `deno coverage cov
// --lcov > cov.lcov` writes cov.lcov (empty when deno starts, and deno
// reads no file of that name), which is not a file written and then run.
// Any other write of the line (printf … > Makefile && make) still sends
// the build to its tool's own handler, which reads what was written.
func (x *cmdCtx) writtenBefore() bool {
	if len(x.c.written) == 0 {
		return false
	}
	own := map[string]bool{}
	if x.part != nil {
		for _, r := range x.part.Redirects {
			own[r] = true
		}
	}
	for p := range x.c.written {
		if !own[p] {
			return true
		}
	}
	return false
}
