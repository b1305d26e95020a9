package policy

import "strings"

// pnpm's workspace selectors before a command (issue 32, polcorp6 class
// E3): `pnpm --filter @app/web exec vitest run` is `pnpm exec vitest run`
// in the selected workspace package, a directory of the project. Only the
// selectors are stepped over (--filter/-F NAME, -r/--recursive,
// -w/--workspace-root, --parallel, --silent); -C/--dir (another
// directory) and every other option are judged as before.

// pnpmSelectors returns the index of the first word after pnpm's
// workspace selectors, or 0 when a word there is not one.
func pnpmSelectors(args []word) int {
	i := 1
	for i < len(args) {
		w := args[i]
		if !w.static || w.brace {
			return 0
		}
		switch {
		case w.val == "--filter" || w.val == "-F":
			if i+1 >= len(args) || !args[i+1].static || strings.HasPrefix(args[i+1].val, "-") {
				return 0
			}
			i += 2
		case strings.HasPrefix(w.val, "--filter=") && len(w.val) > len("--filter="):
			i++
		case w.val == "-r" || w.val == "--recursive" || w.val == "-w" || w.val == "--workspace-root" || w.val == "--parallel" || w.val == "--silent" || w.val == "-s":
			i++
		default:
			return i
		}
	}
	return 0
}

// scriptFlag: a one-letter flag after the script name of `pnpm test`,
// `yarn run NAME` or `bun run NAME`. pnpm, yarn and bun hand every word
// after the script name to the script (vitest's -t NAME, jest's -u), and
// read none of them as their own configuration, as npm does; the options
// that choose a directory, registry or global install are judged before
// this is reached.
func scriptFlag(tool string, ops []word, w word) bool {
	if tool != "pnpm" && tool != "yarn" && tool != "bun" || len(ops) == 0 || !w.static {
		return false
	}
	script := ops[0].val == "test" || ops[0].val == "t" || ops[0].val == "run" && len(ops) > 1
	v := w.val
	return script && len(v) == 2 && v[0] == '-' && isLetter(v[1])
}
