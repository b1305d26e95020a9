package policy

import "testing"

// TestReadOnlySubstitutionFeedingAnArgument: a read-only producer's
// output kept in a variable, git's user name as an --author= value, and
// static items fed to xargs are judged as the words they become
// (substassign.go, subst.go); every other shape still asks or denies.
func TestReadOnlySubstitutionFeedingAnArgument(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	rows := []struct {
		cmd  string
		want Decision
	}{
		{`git commit --author="$(git config user.name) <$(git config user.email)>" -m x`, Allow},
		{`git log --since='2 weeks ago' --author="$(git config user.name)" --oneline`, Allow},
		{`BRANCH=$(git branch --show-current) && git log origin/$BRANCH..HEAD`, Allow},
		{`BRANCH=$(git branch --show-current) && ISSUE_NUMBER=$(echo "$BRANCH" | grep -oE '^[0-9]+')`, Allow},
		{`BASE="$(git merge-base HEAD main)" && git diff --stat $BASE..HEAD`, Allow},
		{`git log $(git merge-base HEAD main)..HEAD`, Allow},
		{`go test $(go list ./... | grep -v /vendor/)`, Allow},
		{`cd "$(git rev-parse --show-toplevel)" && make test`, Allow},
		{`echo ./internal/... | xargs go vet`, Allow},
		{`printf '%s\n' ./a ./b | xargs wc -l`, Allow},

		// free text: unquoted, in another role, another key, another program
		{`git commit --author=$(git config user.name) -m x`, Ask},
		{`git log "$(git config user.name)"`, Ask},
		{`git log --output="$(git config user.name)"`, Ask},
		{`git log --author="$(git config remote.origin.url)"`, Ask},
		{`curl --user "$(git config user.name)" https://example.com`, Ask},
		{`echo "$(git config user.name)" > name.txt`, Ask},
		// the binding: not surely after a successful assignment, assigned
		// twice, named elsewhere, a pipeline, a program that may not take it
		{`B=$(git branch --show-current); git log origin/$B..HEAD`, Ask},
		{`B=$(git branch --show-current) || git log origin/$B..HEAD`, Ask},
		{`true && B=$(git branch --show-current) && git log $B`, Ask},
		{`(B=$(git branch --show-current)) && git log $B`, Ask},
		{`git log $B && B=$(git branch --show-current)`, Ask},
		{`B=$(git branch --show-current) && B=x && git log $B`, Ask},
		{`B=$(git branch --show-current) && read B && git log $B`, Ask},
		{`B=$(git branch --show-current | head -1) && git log $B`, Ask},
		{`B=$(git branch --show-current) && git log ${B:-x}`, Ask},
		{`B=$(git branch --show-current) && rm -rf $B`, Ask},
		{`F=$(git ls-files) && rm $F`, Ask},
		{`B=$(cat .env) && git log $B`, Ask},
		{`B=$(git branch --show-current) && git log $B || git push --force origin $B`, Deny},
		// xargs: items it would split or unquote, options, other input
		{`echo '$(id)' | xargs go vet`, Ask},
		{`echo 'a b' | xargs -I{} sh -c 'x {}'`, Ask},
		{`echo ./x | xargs go vet < list`, Ask},
		{`echo ./a | xargs -0 go vet`, Ask},
		{`echo ./a > f | xargs go vet`, Ask},
		{`echo ~ | xargs rm -rf`, Deny},
		{`echo ./a | xargs curl -T`, Deny},
	}
	for _, sandboxed := range []bool{true, false} {
		cx := ctx
		cx.Sandboxed = sandboxed
		for _, r := range rows {
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cx})
			if v.Decision != r.want {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want %s", sandboxed, r.cmd, v.Decision, v.Rule, v.Reason, r.want)
			}
		}
	}
}
