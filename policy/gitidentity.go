package policy

import "strings"

// Setting the repository's commit identity and display settings (issue
// 32, polcorp6 class E9): `git config user.email dev@example.com` in the
// disposable copy changes only who the copy's commits name and how git
// prints; no key here makes git run a program, fetch or trust anything.
// It is the copy's own .git/config (no --global, --system or --file). In
// place (sentinel exec, mcp) the configuration is the person's repository
// and it asks as before.

// gitPlainKeys are keys whose values git only prints or records.
var gitPlainKeys = wordSet{words: []string{"user.name", "user.email", "color.ui", "init.defaultbranch", "pull.rebase",
	"merge.conflictstyle", "advice.detachedhead", "core.quotepath"}}

// gitPlainConfigWrite: every key written is a plain one and the write
// goes to the copy's repository.
func (x *cmdCtx) gitPlainConfigWrite(keys []string, file *word, global bool) bool {
	if global || file != nil || len(keys) == 0 || x.c.inPlace {
		return false
	}
	for _, k := range keys {
		if !gitPlainKeys.has(strings.ToLower(k)) {
			return false
		}
	}
	return true
}

// npmConfigGet: `npm config get KEY` (or `pnpm config get KEY`) prints one
// setting, registry or loglevel; a key naming credentials
// (//host/:_authToken, _auth, password, certfile, keyfile) prints a secret
// and is not read here.
func npmConfigGet(ops []word) bool {
	if len(ops) != 3 || ops[0].val != "config" || ops[1].val != "get" || !ops[2].static {
		return false
	}
	k := strings.ToLower(ops[2].val)
	if strings.Contains(k, "/") || strings.Contains(k, ":") {
		return false
	}
	for _, part := range secretNameParts { // envfilter.go
		if strings.Contains(k, part) {
			return false
		}
	}
	return true
}
