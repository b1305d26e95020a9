#!/bin/sh
# Makes the reftable fixtures of reftable_test.go with a git that has
# reftable (2.45 or later): GIT=/path/to/git sh make.sh. Each fixture is a
# git dir's HEAD, config (whose extensions.refStorage makes it a
# reftable repository) and reftable/ only, and a golden list of what git itself
# says the refs are (refs.txt: name, then id or "ref: target"; HEAD; the
# stash's entry count).
set -eu
GIT=${GIT:-git}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@a \
	GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@a GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
r=$work/r
"$GIT" init -q --ref-format=reftable --template= -b main "$r"
cd "$r"
keep() { # name: copy HEAD and reftable/ and the golden list
	d=$here/$1
	rm -rf "$d"
	mkdir -p "$d"
	cp .git/HEAD "$d/HEAD"
	"$GIT" config --file "$d/config" core.repositoryformatversion 1
	"$GIT" config --file "$d/config" extensions.refStorage reftable
	cp -r .git/reftable "$d/reftable"
	rm -f "$d"/reftable/*.lock
	{
		"$GIT" for-each-ref --format='%(refname) %(if)%(symref)%(then)ref: %(symref)%(else)%(objectname)%(end)'
		echo "HEAD $(printf 'ref: '; "$GIT" symbolic-ref HEAD 2>/dev/null || "$GIT" rev-parse HEAD)"
		echo "stash $("$GIT" rev-list --walk-reflogs --count refs/stash 2>/dev/null || echo 0)"
	} >"$d/refs.txt"
}
printf 'all:\n\ttrue\n' >Makefile
"$GIT" add Makefile
"$GIT" commit -qm one
echo 2 >two
"$GIT" add two
"$GIT" commit -qm two
"$GIT" branch keep
"$GIT" branch gone
"$GIT" branch -D gone
"$GIT" tag v1
"$GIT" tag -a -m annotated v2 HEAD~1
"$GIT" symbolic-ref refs/heads/alias refs/heads/main
echo a >>two
"$GIT" stash -q
echo b >>two
"$GIT" stash -q
keep before
evil=$(printf 'all:\n\ttouch PWNED\n' | "$GIT" hash-object -w --stdin)
"$GIT" replace "$("$GIT" rev-parse HEAD:Makefile)" "$evil"
keep replaced
# Many refs in one table: several aligned ref blocks and an index.
i=0
while [ $i -lt 600 ]; do
	echo "create refs/heads/many/branch-with-a-long-name-$i HEAD"
	i=$((i + 1))
done | "$GIT" update-ref --stdin
"$GIT" pack-refs --all
keep packed
