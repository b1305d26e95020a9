package policy

import "strings"

// Hosted databases overwritten in place. cloudwipe.go denies the verbs
// that delete (apps:destroy, delete-user); a hosted database's reset,
// restore or copy onto it removes its data as surely, though the verb
// does not say delete: `heroku pg:reset DATABASE --confirm app` (polcorp11,
// asked as a remote tool), `heroku pg:backups:restore`, `heroku pg:copy
// SRC TARGET`, `heroku pg:push local TARGET`, `supabase db reset --linked`,
// `pscale database restore-dump`, `neonctl branches reset`. A reset of
// the local development database (`supabase db reset` with no --linked or
// --db-url) keeps its own judgement.

// cloudDataResets maps a hosting CLI to the command words that overwrite
// a hosted database's data, matched against its first non-option words
// joined by a space.
var cloudDataResets = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"heroku":   {"pg:reset", "pg:backups:restore", "pg:backups restore", "pg:copy", "pg:push", "redis:reset"},
		"supabase": {"db reset"},
		"pscale":   {"database restore-dump"},
		"neonctl":  {"branches reset", "branches restore"},
	}
}}

// cloudRemoteFlag are the options that point supabase's db commands at
// the hosted project instead of the local one.
var cloudRemoteFlag = wordSet{words: []string{"--linked", "--db-url"}}

// cloudDataReset returns the command of args that overwrites a hosted
// database, or "".
func cloudDataReset(args []word) string {
	resets, ok := cloudDataResets.get()[args[0].val]
	if !ok {
		return ""
	}
	var verbs []string
	remote := false
	for _, w := range args[1:] {
		v := w.val
		name, _, _ := strings.Cut(v, "=")
		if cloudRemoteFlag.has(name) {
			remote = true
		}
		if !strings.HasPrefix(v, "-") && len(verbs) < 3 {
			verbs = append(verbs, strings.ToLower(v))
		}
	}
	line := strings.Join(verbs, " ")
	for _, r := range resets {
		if line == r || strings.HasPrefix(line, r+" ") {
			if args[0].val == "supabase" && !remote {
				return "" // the local development database
			}
			return r
		}
	}
	return ""
}

// addCloudCLIHandlers judges the hosting CLIs of cloudwipe.go that no
// other handler names (supabase, neonctl, pscale, turso, railway, …) as
// remoteTool judges aws and heroku: they talk to remote services (ask),
// and their deletions and database resets are denied. Before, they were
// unknown programs, which ask the same but never deny.
func addCloudCLIHandlers(handlers map[string]handler) {
	for _, n := range cloudCLIs.words {
		if handlers[n] == nil {
			handlers[n] = remoteTool
		}
	}
}
