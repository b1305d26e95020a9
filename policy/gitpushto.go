package policy

import "strings"

// git push to a place the line itself names: a URL as the repository
// (`git push https://x.example/r.git main`, `git push --repo=git@h:r`) or a
// remote the same line added or re-pointed (`git remote add x URL && git
// push x main`, `git remote set-url origin URL && git push`)
// sends the project's history somewhere nobody configured: denied as an
// upload is. Pushing to a remote the repository already has asks, as
// every push does (gitNetwork).

// RuleGitPushElsewhere: git push to a URL or a remote the line added.
const RuleGitPushElsewhere = "git.push-elsewhere"

// gitPushTarget judges git remote add and set-url (remembering the name;
// "" marks a re-pointed remote a bare push may use) and git push
// (denying a URL or a remembered name as its repository).
func gitPushTarget(x *cmdCtx, sub string, sargs []word) {
	switch sub {
	case "remote":
		ops := operands(sargs, "tm", []string{"mirror"})
		if len(ops) >= 3 && (ops[0].val == "add" || ops[0].val == "set-url") {
			// git remote set-url [--push|--add] NAME URL re-points a
			// remote the repository has: a push to it (or a bare push,
			// which goes to the current branch's remote) goes to URL.
			if x.c.addedRemotes == nil {
				x.c.addedRemotes = map[string]bool{}
			}
			x.c.addedRemotes[ops[1].val] = true
			if ops[0].val == "set-url" {
				x.c.addedRemotes[""] = true
			}
		}
	case "push":
		repo := ""
		for i := 0; i < len(sargs); i++ {
			v := sargs[i].val
			if after, ok := strings.CutPrefix(v, "--repo="); ok {
				repo = after
				break
			}
			if v == "--repo" && i+1 < len(sargs) {
				repo = sargs[i+1].val
				break
			}
			if v == "-o" || v == "--push-option" || v == "--receive-pack" || v == "--exec" {
				i++
				continue
			}
			if v == "--" {
				if i+1 < len(sargs) {
					repo = sargs[i+1].val
				}
				break
			}
			if !strings.HasPrefix(v, "-") {
				repo = v
				break
			}
		}
		if repo == "" && x.c.addedRemotes[""] {
			x.add(Deny, RuleGitPushElsewhere, "git push goes to a remote this line re-pointed (git remote set-url)")
		} else if repo != "" && (gitURLLike(repo) || x.c.addedRemotes[repo]) {
			x.add(Deny, RuleGitPushElsewhere, "git push sends the project to "+quoteShort(repo)+", a place this line names, not a configured remote")
		}
	}
}

// gitURLLike: a URL (scheme://), scp-like user@host:path, or a local path
// git can push to.
func gitURLLike(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	if at := strings.IndexByte(s, '@'); at > 0 && strings.IndexByte(s[at:], ':') > 0 {
		return true
	}
	return false
}
