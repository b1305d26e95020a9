package policy

import "strings"

// TypeScript and loader runners (tsx, ts-node, vite-node, esno, …) run a
// script as node does, through a loader (polcorp11: tsx scripts/seed.ts
// asked as an unknown program, while node scripts/seed.mjs and npx tsx are
// judged). Each is judged as node (nodeCmd): inline code (-e, -p) is
// inline code, a preloaded module (-r, --import) asks, and the script is
// judged as node's script is (a workspace script inside the sandbox; with
// the sandbox off these are no system interpreters, so it asks). Options
// whose value names the runner's configuration (--tsconfig FILE, -P
// tsconfig.json) are taken off first, so that their value is not read as
// the script.

// tsRunnerNames are the runners judged as node.
var tsRunnerNames = []string{"tsx", "ts-node", "ts-node-esm", "ts-node-cwd", "ts-node-transpile-only", "vite-node", "esno", "esrun", "babel-node"}

// tsRunnerValued are the runners' options that take the next word as a
// value that is not the script.
var tsRunnerValued = wordSet{words: []string{"--tsconfig", "-P", "--project", "-O", "--compiler-options", "-C",
	"--compiler", "--cwd", "--dir", "--scope", "--scopeDir", "--root", "--config", "--config-file", "--mode",
	"--env-file", "--ignore", "--extensions", "--presets", "--plugins"}}

func addTSRunnerHandlers(handlers map[string]handler) {
	for _, n := range tsRunnerNames {
		if handlers[n] == nil {
			handlers[n] = tsRunnerCmd
		}
	}
}

func tsRunnerCmd(x *cmdCtx, args []word) {
	name, rest := args[0].val, args[1:]
	if name == "tsx" && len(rest) > 0 && rest[0].val == "watch" {
		rest = rest[1:] // tsx watch FILE: the same script, run again on change
	}
	var kept []word
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		if !strings.HasPrefix(v, "-") || v == "-" {
			kept = append(kept, rest[i:]...)
			break
		}
		if opt, _, eq := strings.Cut(v, "="); eq && tsRunnerValued.has(opt) {
			continue
		}
		if tsRunnerValued.has(v) {
			i++
			continue
		}
		kept = append(kept, rest[i])
	}
	if len(kept) == 0 {
		x.add(Ask, RuleShellStdin, name+" with no script starts an interactive interpreter or reads its input")
		return
	}
	nodeCmd(x, name, kept) // handlers_interp.go
}
