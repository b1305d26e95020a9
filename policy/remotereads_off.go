package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// Reads of the project's own remotes with the sandbox off (issue 32,
// off31), as kubectl's reads of the configured context are
// (infraplan_off.go). Off, they run with the person's own credentials, so
// each is limited to what the person already set up for this project and
// changes nothing there:
//
//   - `git fetch` of a configured remote named plainly (gitFetchPlain:
//     origin, upstream; no URL, path or program-running option). It writes
//     only remote-tracking refs and objects under .git. `git pull` also
//     merges or rebases into the working tree, so it is allowed only in
//     the disposable copy, not in place. The remotes are the person's:
//     `git remote add/set-url` asks and `git config remote.*` is denied.
//   - gh's read-only verbs on the current repository: pr view/list/checks/
//     diff/status, issue view/list/status, repo view, run list/view,
//     workflow list/view, release list/view. -R/--repo (another
//     repository, private ones included), a URL or OWNER/REPO operand,
//     --web, --hostname, `gh api` and `gh search` still ask.
//
// Both need a line that sets no environment (GIT_SSH_COMMAND, GH_TOKEN,
// GH_HOST) and wrote nothing before (it may have written what they read).

// gitFetchOff allows, with the sandbox off, a fetch (or, outside in-place
// runs, a pull) of a configured remote; it reports whether it did.
func (x *cmdCtx) gitFetchOff(sub string, sargs []word) bool {
	if x.c.sandbox || sub != "fetch" && (sub != "pull" || x.c.inPlace) || !gitFetchPlain(sargs) ||
		x.part == nil || len(x.part.Assigns) > 0 || x.writtenBefore() || x.cw.unknown {
		return false
	}
	if r := fetchRemoteName(sargs); r != "" && !x.gitRemoteConfigured(r) {
		return false // not a remote: git would read it as a path
	}
	what := "fetches remote-tracking refs into .git"
	if sub == "pull" {
		what = "merges them into the disposable copy"
	}
	x.add(Allow, RuleRemoteRead, "git "+sub+" reads a remote the person configured and "+what+" (--sandbox off)")
	return true
}

// offGhVerbs are gh's read-only verbs on the current repository.
var offGhVerbs = wordSet{words: []string{"pr view", "pr list", "pr checks", "pr diff", "pr status", "issue view", "issue list",
	"issue status", "repo view", "run list", "run view", "workflow list", "workflow view", "release list", "release view"}}

// ghReadOff allows, with the sandbox off, a read-only gh verb on the
// current repository (see above); it reports whether it did.
func (x *cmdCtx) ghReadOff(args []word) bool {
	if len(args) < 3 || !args[1].static || !args[2].static || x.part == nil || len(x.part.Assigns) > 0 || x.writtenBefore() {
		return false
	}
	verb := args[1].val + " " + args[2].val
	if !offGhVerbs.has(verb) {
		return false
	}
	for _, w := range args[3:] {
		name, _, _ := strings.Cut(w.val, "=")
		if remoteReadRefused("gh", w) || w.pattern || name == "-R" || name == "--repo" || strings.HasPrefix(name, "-R") {
			return false
		}
		if !strings.HasPrefix(w.val, "-") && strings.ContainsAny(w.val, "/:") {
			return false // a URL or OWNER/REPO: another repository
		}
	}
	x.add(Allow, RuleNetTool, "gh "+verb+" reads the current repository with the person's own login and changes nothing (--sandbox off)")
	return true
}

// fetchRemoteName is the first operand of fetch or pull (the remote), ""
// for none (gitFetchPlain has checked the rest).
func fetchRemoteName(sargs []word) string {
	for i := 0; i < len(sargs); i++ {
		v := sargs[i].val
		switch {
		case v == "--depth":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			return v
		}
	}
	return ""
}

// gitRemoteConfigured reports whether the workspace's .git/config names
// the remote r (a file too large to read names nothing).
func (x *cmdCtx) gitRemoteConfigured(r string) bool {
	b, err := os.ReadFile(filepath.Join(x.c.ws, ".git", "config"))
	if err != nil || len(b) > 1<<20 {
		return false
	}
	return strings.Contains(string(b), "[remote \""+r+"\"]")
}
