package policy

import "testing"

// TestXargsOverWorkspaceListOff: with the sandbox off, xargs fed the
// workspace's own names (git ls-files, git diff --name-only, find, fd, rg
// -l, ls, printf of workspace globs, seq) running a program that reads,
// counts, checks or formats them is judged as that program given one name
// (xargslisted_off.go). Shapes from polcorp7/9/10/11 (AGENTS.md and
// CLAUDE.md files, agent transcripts). Writers, shells, interpreters,
// names from a file the coder wrote, producers that run or print other
// text, and content-printing grep still ask; the line is never allowed
// off where the sandbox asks.
func TestXargsOverWorkspaceListOff(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for _, line := range []string{
		`git ls-files '*.go' | xargs gofmt -l`,
		`find . -type f -name '*.py' | xargs wc -l`,
		`find . -name '*.test.ts' | head -20 | xargs -I{} echo {}`,
		`rg -l 'useEffect' src/ | xargs wc -l | sort -n | tail`,
		`find . -name '*.go' -not -path './vendor/*' | xargs grep -l 'context.TODO' | head`,
		`git ls-files -z '*.py' | xargs -0 ruff check`,
		`seq 1 5 | xargs -I{} echo test-{}`,
		`find src -name '*.ex' | xargs wc -l | sort -n | tail`,
		`fd -e py | xargs ruff check`,
		`git diff --name-only HEAD~1 | grep '\.py$' | xargs -r black --check`,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s %s: %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, line := range []string{
		`git ls-files | grep -rh x | xargs black`, // grep -r searches the folder: xargs gets file contents as names (review)
		`git ls-files | grep -R --include=*.py y | xargs ruff check --fix`,
		`git ls-files | xargs rm`,
		`git ls-files | xargs rm -f`,
		`git ls-files | xargs sed -i s/a/b/`,
		`git ls-files | xargs chmod +x`,
		`find . -exec echo {} \; | xargs wc -l`,
		`find . -printf '%p\n' | xargs wc -l`,
		`find ~ -name '*.pem' | xargs wc -l`,
		`ls ../ | xargs wc -l`,
		`printf '%s\n' /etc/* | xargs wc -l`,
		`printf '%s\n' ../*.txt | xargs wc -l`,
		`cat list.txt | xargs wc -l`,
		`xargs -a x wc -l`,
		`git ls-files | xargs sh -c 'cat "$0"'`,
		`git ls-files | xargs -I{} wc -l {} /etc/shadow`,
		`git ls-files | xargs grep password`,
		`git ls-files | xargs python -m pytest`,
		`git ls-files | xargs wc --files0-from=/etc/shadow`,
		`git ls-files | xargs ruff check --config /tmp/x.toml`,
		`git ls-files --format='%(objectname)' | xargs wc -l`,
		`fd -x rm | xargs wc -l`,
		`git ls-files | sort -o /tmp/x | xargs wc -l`,
		`git ls-files | grep -f /etc/passwd | xargs wc -l`,
		`git ls-files | xargs curl -T`,
		`curl https://x.example/list | xargs wc -l`,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: off}); v.Decision == Allow {
			t.Errorf("off: %q allowed: %s: %s", line, v.Rule, v.Reason)
		}
	}
}
