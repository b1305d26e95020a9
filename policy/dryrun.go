package policy

// A dry run is not a publish (issue 32, polcorp6 class E6). `npm publish
// --dry-run` packs the project, runs its prepack/prepare scripts and
// prints what it would upload; it uploads nothing. The same holds for the
// other package tools whose --dry-run is documented to stop before the
// upload. The dry run is the project's own code (its lifecycle scripts,
// cargo's build of the crate): allowed inside the sandbox as that code
// is, asked without it. Only the plain form is read as a dry run: the
// verb right after the tool, --dry-run spelled in full with no value
// (--dry-run=false publishes), and nothing else but flags that only
// change what is printed or checked; anything else (a registry, a tag,
// an OTP, a path) is judged as the publish it may be.

// dryRunVerbs: tool -> verbs whose --dry-run uploads nothing.
var dryRunVerbs = lazy[map[string]map[string]bool]{build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"npm":    {"publish": true, "pack": true},
		"pnpm":   {"publish": true, "pack": true},
		"yarn":   {"pack": true},
		"bun":    {"publish": true},
		"cargo":  {"publish": true, "package": true},
		"deno":   {"publish": true},
		"poetry": {"publish": true},
		"uv":     {"publish": true},
	}
}}

// dryRunQuiet are the flags a dry run may carry beside --dry-run.
var dryRunQuiet = wordSet{words: []string{"--json", "--ignore-scripts", "--allow-dirty", "--no-git-checks", "--no-verify",
	"--allow-slow-types", "--quiet", "-q", "--silent", "-s", "--verbose"}}

// dryRun judges prog args as a dry run of a publish or pack; false when
// it is not one, and the line is judged as before.
func (x *cmdCtx) dryRun(prog string, args []word) bool {
	verbs := dryRunVerbs.get()[prog]
	if verbs == nil || len(args) < 3 || !args[1].static || !verbs[args[1].val] {
		return false
	}
	dry := 0
	for _, w := range args[2:] {
		switch {
		case !w.static || w.brace:
			return false
		case w.val == "--dry-run":
			dry++
		case !dryRunQuiet.has(w.val):
			return false
		}
	}
	if dry != 1 {
		return false
	}
	x.inWorkspace()
	x.projectCode(prog+" "+args[1].val+" --dry-run runs the project's packing scripts and uploads nothing", RuleSandboxCode, // projectrunners_off.go
		prog+" "+args[1].val+" --dry-run runs the project's packing scripts")
	return true
}
