package policy

import (
	"path/filepath"
	"strings"
)

// Publishing through a package runner (issue 32, polcorp5/polcorp6 deny
// recall): `npx npm publish`, `corepack pnpm publish`, `pnpm dlx npm
// publish`, `bunx npm publish` run the package manager itself, which
// publishes as `npm publish` does: the runner only fetches or picks the
// manager's version. The inner command is judged for publishing as if
// written directly; anything else the runner runs stays judged by the
// runner's own handler.

// runnerManagers are the package managers a runner can start.
var runnerManagers = wordSet{words: []string{"npm", "pnpm", "yarn", "bun", "yarnpkg"}}

// judgeRunnerPublish denies a package runner that starts a package
// manager's publish.
func (x *cmdCtx) judgeRunnerPublish(args []word) {
	if len(args) < 3 {
		return
	}
	rest := args[1:]
	switch filepath.Base(args[0].val) {
	case "npx", "pnpx", "bunx", "corepack":
	case "pnpm", "yarn":
		if rest[0].val != "dlx" {
			return
		}
		rest = rest[1:]
	case "npm":
		if rest[0].val != "exec" && rest[0].val != "x" {
			return
		}
		rest = rest[1:]
	default:
		return
	}
	for len(rest) > 0 && strings.HasPrefix(rest[0].val, "-") {
		if rest[0].val == "--" {
			rest = rest[1:]
			break
		}
		rest = rest[1:] // -y, --yes, --quiet: the runner's own switches
	}
	if len(rest) < 2 || !rest[0].static {
		return
	}
	name, _, _ := strings.Cut(rest[0].val, "@") // npm@10 is npm
	if !runnerManagers.has(name) {
		return
	}
	inner := append([]word{{val: name, static: true}}, rest[1:]...)
	if why := publishes(name, inner[1:]); why != "" {
		x.add(Deny, RulePublish, why+" (run through "+filepath.Base(args[0].val)+")")
	}
}
