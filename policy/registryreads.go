package policy

import "strings"

// Registry reads: `npm view react version`, `npm outdated`, `pip index
// versions requests`, `cargo search serde` ask a package registry what it
// holds and print it; they install nothing and run no package's code.
// Inside the sandbox the network goes through Sentinel's host gate, which
// judges the registry host as it judges any fetch, so the read itself is
// everyday; with the sandbox off they are allowed when no file of the workspace
// redirects the registry (registryquery_off.go) and ask otherwise. A custom index or registry
// is judged where each tool's options are (pip's is denied).

// npmRegistryReads are npm's subcommands that print what the registry
// holds about a package (view and its aliases, search and its aliases).
var npmRegistryReads = wordSet{words: []string{"view", "info", "show", "v", "search", "s", "se", "find"}}

// registryRead allows what (a read of a package registry) inside the
// sandbox and asks without it.
func registryRead(x *cmdCtx, what string) {
	if x.registryReadOff(strings.Fields(what)[0], what) { // registryquery_off.go
		return
	}
	x.sandboxedCode(what+" reads the package registry", RuleNetTool,
		what+" talks to the package registry, and the sandbox is off")
}
