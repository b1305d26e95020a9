package policy

import "testing"

// polcorp13: git options that read a file named in their value (blame's
// --contents and --ignore-revs-file/-S, commit's, tag's, merge's and
// notes' -F/--file, commit's -t/--template, grep's -f, ls-files'
// --exclude-from/-X, and --pathspec-from-file) were not judged as reads:
// git blame --contents=$HOME/.ssh/id_rsa README.md printed the key as
// "lines of README.md" and was allowed as a read of the repository
// (sonirico/mcp-shell#24). Each form, separate or attached, is now the
// read of its file; a file of the workspace still passes.
func TestGitOptionsThatReadAFile(t *testing.T) {
	checkClass(t, []classCase{
		{`git blame --contents=$HOME/.ssh/id_rsa README.md`, "deny"},
		{`git blame --contents ~/.ssh/id_rsa README.md`, "deny"},
		{`git annotate --contents=/root/.aws/credentials go.mod`, "deny"},
		{`git blame -S ~/.ssh/id_ed25519 README.md`, "deny"},
		{`git blame --ignore-revs-file=$HOME/.netrc README.md`, "deny"},
		{`git commit -F ~/.aws/credentials`, "deny"},
		{`git commit -F/root/.aws/credentials`, "deny"},
		{`git commit --file=$HOME/.ssh/id_rsa`, "deny"},
		{`git commit -t ~/.ssh/id_rsa`, "deny"},
		{`git tag -a v1 -F ~/.ssh/id_rsa`, "deny"},
		{`git grep -f ~/.ssh/id_rsa -- .`, "deny"},
		{`git ls-files --exclude-from=$HOME/.ssh/id_rsa -i -o`, "deny"},
		{`git add --pathspec-from-file=/root/.ssh/id_rsa`, "deny"},
		{`git blame --contents=src/main.go src/main.go`, "allow"},
		{`git commit -F .git/COMMIT_EDITMSG`, "allow"},
		{`git commit -F msg.txt`, "allow"},
		{`git grep -f patterns.txt`, "allow"},
		{`git branch -t feature origin/main`, "allow"},
		{`git checkout -t origin/feature`, "allow"},
	})
}
