package policy

import "strings"

// bun runs a file of the project as node runs one (bun src/cli.ts, bun run
// scripts/x.ts): the project's own code, allowed inside the sandbox and
// asked without it (runFile, as node's script). bun build bundles the
// project's files into a directory or file of the workspace: its options
// name where the bundle goes, not configuration npm would read, so they are
// judged here before npmOptions sees them. An option bun build may use to
// load code or put the environment into the bundle (--env, --define,
// plugins) is left to npmOptions and asks.

// bunRunsFile judges bun running the project file w and reports whether it
// did: a URL or a specifier (https://…, npm:pkg, jsr:@x/y) is not a file of
// the project and is left to bunCmd, which asks.
func bunRunsFile(x *cmdCtx, w word) bool {
	if strings.Contains(w.val, ":") {
		return false
	}
	x.runScript("bun", w, RuleInterpScript)
	return true
}

// bunBuildFlags are bun build's flags that only shape the bundle.
var bunBuildFlags = wordSet{words: []string{"--minify", "--minify-syntax", "--minify-whitespace", "--minify-identifiers",
	"--sourcemap", "--splitting", "--production", "--compile", "--watch", "--no-bundle", "--bytecode", "--no-clear-screen"}}

// bunBuildValued are bun build's options whose value is a plain name.
var bunBuildValued = wordSet{words: []string{"--target", "--format", "--sourcemap", "--packages", "--external", "-e", "--entry-naming", "--chunk-naming", "--asset-naming", "--public-path"}}

// bunBuild judges bun build ENTRY… [--outdir DIR | --outfile FILE] and
// reports whether it did; false leaves the line to bunCmd.
func bunBuild(x *cmdCtx, args []word) bool {
	var reads, writes []word
	for i := 2; i < len(args); i++ {
		a := args[i]
		if !a.static {
			return false
		}
		name, val, hasVal := strings.Cut(a.val, "=")
		switch {
		case name == "--outdir" || name == "--outfile" || name == "--root":
			if !hasVal {
				if i+1 >= len(args) || !args[i+1].static {
					return false
				}
				i++
				val = args[i].val
			}
			w := word{val: val, static: true}
			if name == "--root" {
				reads = append(reads, w)
			} else {
				writes = append(writes, w)
			}
		case bunBuildFlags.has(name) && !hasVal:
		case bunBuildValued.has(name):
			if !hasVal {
				if i+1 >= len(args) || !args[i+1].static {
					return false
				}
				i++
				val = args[i].val
			}
			if !plainToken(strings.ReplaceAll(strings.ReplaceAll(val, "/", ""), "@", "")) && !strings.Contains(val, "[") {
				return false
			}
		case strings.HasPrefix(a.val, "-"):
			return false
		default:
			reads = append(reads, a)
		}
	}
	x.add(Allow, RuleBuildProject, "bun build bundles the project's code")
	x.inWorkspace()
	for _, w := range reads {
		x.read(w)
	}
	for _, w := range writes {
		x.write(w)
	}
	return true
}
